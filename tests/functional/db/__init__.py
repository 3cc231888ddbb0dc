"""Database tests: migrations and queries on the real database."""
