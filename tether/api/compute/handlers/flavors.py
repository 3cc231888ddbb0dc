"""Handlers of /flavors: list, detail, show, create, delete."""

from tether.api import fault

# Placeholder while this module is written (same session).


def list_flavors(req):
    raise fault.HTTPError(501, "Not implemented yet.")


def list_flavors_detail(req):
    raise fault.HTTPError(501, "Not implemented yet.")


def show_flavor(req):
    raise fault.HTTPError(501, "Not implemented yet.")


def create_flavor(req):
    raise fault.HTTPError(501, "Not implemented yet.")


def delete_flavor(req):
    raise fault.HTTPError(501, "Not implemented yet.")
