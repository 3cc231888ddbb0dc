"""Drivers: volume storage (remotefs, NFS) and virtualization (libvirt)."""
