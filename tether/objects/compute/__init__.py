"""Objects of the compute service, one module per resource."""
