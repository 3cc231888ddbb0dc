"""The volume API's response bodies, one module per resource."""
