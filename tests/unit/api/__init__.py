"""Unit tests of the API framework (tether.api)."""
