"""Keystone from PyPI as a child process (tether-aio --keystone, and the
integration deployment's Keystone)."""
