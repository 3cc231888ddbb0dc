"""Handlers of /os-services: list, update, delete."""

from tether.api import fault

# Placeholder while this module is written (same session).


def list_services(req):
    raise fault.HTTPError(501, "Not implemented yet.")


def update_service(req):
    raise fault.HTTPError(501, "Not implemented yet.")


def delete_service(req):
    raise fault.HTTPError(501, "Not implemented yet.")
