"""Handlers of /servers: create, list, detail, show, update, delete."""

from tether.api import fault

# Placeholder while this module is written (same session).


def list_servers(req):
    raise fault.HTTPError(501, "Not implemented yet.")


def list_servers_detail(req):
    raise fault.HTTPError(501, "Not implemented yet.")


def show_server(req):
    raise fault.HTTPError(501, "Not implemented yet.")


def create_server(req):
    raise fault.HTTPError(501, "Not implemented yet.")


def update_server(req):
    raise fault.HTTPError(501, "Not implemented yet.")


def delete_server(req):
    raise fault.HTTPError(501, "Not implemented yet.")
