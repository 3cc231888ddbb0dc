"""Handlers of /os-availability-zone: list, detail."""

from tether.api import fault

# Placeholder while this module is written (same session).


def list_availability_zones(req):
    raise fault.HTTPError(501, "Not implemented yet.")


def list_availability_zones_detail(req):
    raise fault.HTTPError(501, "Not implemented yet.")
