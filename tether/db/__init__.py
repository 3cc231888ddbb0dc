"""Database layer: engines and sessions, models, and a query module per
resource."""
