"""Handlers of the compute API, one module per resource."""
