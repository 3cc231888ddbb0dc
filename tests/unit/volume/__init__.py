"""Unit tests of the volume service and its drivers."""
