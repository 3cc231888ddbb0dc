"""Domain objects (oslo.versionedobjects), sent over RPC at pinned versions."""


def register_all():
    __import__('tether.objects.volume.attachment')
    __import__('tether.objects.compute.instance')
    __import__('tether.objects.volume.volume')
