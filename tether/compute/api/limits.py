"""A project's absolute compute limits (``/limits``), in the API
process: each limit of its quota with what it uses
(tether.compute.quota)."""

from tether.compute import quota


def get(context, project_id):
    """``{resource: {'limit', 'in_use', 'reserved'}}`` of the project."""
    return quota.usages(context, project_id)
