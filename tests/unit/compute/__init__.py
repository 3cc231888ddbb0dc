"""Unit tests of the compute service."""
