"""The libvirt driver: QEMU guests on qemu:///system."""
