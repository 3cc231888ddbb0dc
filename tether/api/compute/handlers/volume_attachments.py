"""Handlers of /servers/{id}/os-volume_attachments."""

from tether.api import fault

# Placeholder while this module is written (same session).


def list_volume_attachments(req):
    raise fault.HTTPError(501, "Not implemented yet.")


def create_volume_attachment(req):
    raise fault.HTTPError(501, "Not implemented yet.")


def show_volume_attachment(req):
    raise fault.HTTPError(501, "Not implemented yet.")


def delete_volume_attachment(req):
    raise fault.HTTPError(501, "Not implemented yet.")
