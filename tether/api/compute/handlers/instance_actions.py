"""Handlers of /servers/{id}/os-instance-actions: list, show."""

from tether.api import fault

# Placeholder while this module is written (same session).


def list_instance_actions(req):
    raise fault.HTTPError(501, "Not implemented yet.")


def show_instance_action(req):
    raise fault.HTTPError(501, "Not implemented yet.")
