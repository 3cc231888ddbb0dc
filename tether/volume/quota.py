"""The quota engine: limits with their defaults, usage, checks and
reservations, which the volumes and their actions count against
(tether.volume.api.quota_sets sets and reverts a project's limits)."""

from oslo_config import cfg

from tether.db.volume import quota as db_quotas
from tether.volume import exception

CONF = cfg.CONF

RESOURCES = tuple(db_quotas.RESOURCES)


def default_limits():
    return {resource: CONF[option]
            for resource, option in db_quotas.RESOURCES.items()}


def get_limits(context, project_id):
    """Every limit of a project: its own where set, else the default."""
    limits = default_limits()
    limits.update(db_quotas.get_project_limits(context, project_id))
    return limits


def get_usages(context, project_id):
    """{resource: {'limit', 'in_use', 'reserved'}} (Cinder's usage; its
    "allocated", of nested quotas, it no longer has)."""
    limits = get_limits(context, project_id)
    usages = db_quotas.get_usages(context, project_id)
    return {r: {'limit': limits[r],
                'in_use': usages.get(r, (0, 0))[0],
                'reserved': usages.get(r, (0, 0))[1]}
            for r in RESOURCES}


def check_per_volume_size(context, project_id, size):
    """Raise VolumeSizeExceedsLimit; return the project's limits."""
    limits = get_limits(context, project_id)
    limit = limits['per_volume_gigabytes']
    if 0 <= limit < size:
        raise exception.VolumeSizeExceedsLimit(size=size, limit=limit)
    return limits


def reserve(context, project_id, deltas, limits=None, resource_id=None):
    if limits is None:
        limits = get_limits(context, project_id)
    return db_quotas.reserve(context, project_id, deltas, limits,
                             CONF.reservation_expire, resource_id=resource_id)
