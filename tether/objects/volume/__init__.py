"""Objects of the volume service, one module per resource."""
