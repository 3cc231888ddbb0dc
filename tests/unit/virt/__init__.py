"""Unit tests of the libvirt driver."""
