"""Handlers of /os-server-external-events."""

from tether.api import fault

# Placeholder while this module is written (same session).


def create_external_events(req):
    raise fault.HTTPError(501, "Not implemented yet.")
