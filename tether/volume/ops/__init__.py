"""The work of tether-volume on its storage host, one module per resource:
plain functions that the manager's RPC methods call.
"""
