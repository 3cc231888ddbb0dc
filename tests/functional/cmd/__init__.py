"""Functional tests of the commands (tether-manage, the API commands)."""
