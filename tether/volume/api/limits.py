"""A project's absolute limits (``/limits``), in the API process: each
limit of its quota with what the project uses (tether.volume.quota)."""

from tether.volume import quota


def get(context, project_id):
    """``{resource: {'limit', 'in_use', 'reserved'}}`` of the project."""
    return quota.get_usages(context, project_id)
