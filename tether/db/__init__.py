"""Database layer: engine and sessions, models, one query module per resource."""
