"""Handlers of /servers/{id}/action: os-start, os-stop, reboot."""

from tether.api import fault

# Placeholder while this module is written (same session).


def dispatch(req):
    raise fault.HTTPError(501, "Not implemented yet.")
