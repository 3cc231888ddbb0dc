"""Quota rules: limits with their defaults, checks and reservations."""

from oslo_config import cfg

from tether.db import session
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
    """{resource: {'limit', 'in_use', 'reserved', 'allocated'}}."""
    limits = get_limits(context, project_id)
    usages = db_quotas.get_usages(context, project_id)
    return {r: {'limit': limits[r],
                'in_use': usages.get(r, (0, 0))[0],
                'reserved': usages.get(r, (0, 0))[1],
                'allocated': 0}
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


def validate_new_limits(context, project_id, new_limits):
    """A limit below what is already in use (and reserved) is refused."""
    usages = db_quotas.get_usages(context, project_id, for_update=True)
    for resource, limit in new_limits.items():
        in_use, reserved = usages.get(resource, (0, 0))
        if 0 <= limit < in_use + reserved:
            raise exception.InvalidInput(
                reason='quota %s of %s is below the %s in use or reserved'
                       % (resource, limit, in_use + reserved))


def check_resources(names):
    """InvalidInput naming every key that is not a resource tether counts."""
    unknown = sorted(set(names) - set(RESOURCES))
    if unknown:
        raise exception.InvalidInput(
            reason='bad key(s) in quota set: %s (tether has quotas for %s)'
                   % (', '.join(unknown), ', '.join(RESOURCES)))


@session.VOLUME.writer
def update_limits(context, project_id, new_limits, skip_validation=False):
    """Set some limits of a project; return all its limits.

    Unless ``skip_validation``, the usage rows are locked and a limit below
    what is in use and reserved is refused, in the same transaction as the
    write.
    """
    check_resources(new_limits)
    if not skip_validation:
        validate_new_limits(context, project_id, new_limits)
    db_quotas.set_project_limits(context, project_id, new_limits)
    return get_limits(context, project_id)


def revert_limits(context, project_id):
    """Forget a project's own limits: the defaults apply again."""
    db_quotas.delete_project_limits(context, project_id)
