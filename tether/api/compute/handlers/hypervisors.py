"""Handlers of /os-hypervisors: list, detail, show."""

from tether.api import fault

# Placeholder while this module is written (same session).


def list_hypervisors(req):
    raise fault.HTTPError(501, "Not implemented yet.")


def list_hypervisors_detail(req):
    raise fault.HTTPError(501, "Not implemented yet.")


def show_hypervisor(req):
    raise fault.HTTPError(501, "Not implemented yet.")
