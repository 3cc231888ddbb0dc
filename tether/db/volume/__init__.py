"""The volume service database: models and one query module per resource."""
