"""The compute API's response bodies, one module per resource."""
