"""Functional tests of the libvirt driver: real libvirtd, real QEMU (TCG)."""
