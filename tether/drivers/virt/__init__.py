"""Virtualization drivers: what tether-compute asks of a hypervisor."""
