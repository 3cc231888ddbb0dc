"""Functional tests of the volume service, over its API."""
