"""Objects of the compute service, one module per resource."""


def register_all():
    """Register the versioned objects the compute service sends over RPC
    (importing their modules registers them)."""
    from tether.objects.compute import instance  # noqa: F401
