"""Objects of the volume service, one module per resource."""


def register_all():
    """Register the versioned objects the volume service sends over RPC
    (importing their modules registers them)."""
    from tether.objects.volume import attachment  # noqa: F401
    from tether.objects.volume import backup  # noqa: F401
    from tether.objects.volume import snapshot  # noqa: F401
    from tether.objects.volume import volume  # noqa: F401
