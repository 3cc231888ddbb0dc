"""Questions about who may reach a path on this host."""

import os


def reachable_by_others(path):
    """True if every directory down to ``path`` lets others through (o+x):
    QEMU runs as libvirt-qemu and must reach volume files and instance
    directories."""
    path = os.path.abspath(path)
    while True:
        if not os.stat(path).st_mode & 0o001:
            return False
        parent = os.path.dirname(path)
        if parent == path:
            return True
        path = parent
