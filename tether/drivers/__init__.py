"""Drivers: volume storage (remotefs, NFS) and, later, virtualization."""
