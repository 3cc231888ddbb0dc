"""Handlers of the volume API, one module per resource."""
