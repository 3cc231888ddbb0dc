"""Unit tests of the commands."""
