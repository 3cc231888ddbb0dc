"""Domain objects (oslo.versionedobjects), sent over RPC at pinned versions."""


def register_all():
    __import__('tether.objects.attachment')
    __import__('tether.objects.instance')
    __import__('tether.objects.volume')
