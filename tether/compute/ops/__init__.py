"""The work of tether-compute on its hypervisor host, one module per
resource: plain functions that the manager's RPC methods call.
"""
