"""A project's quota set (``/os-quota-sets/{project_id}``), in the API
process: its limits (with what is in use, on request), their defaults,
set and reverted.

The quota engine (limits with their defaults, usage, reservations),
which the volumes and their actions count against too, is
tether.volume.quota.
"""

from tether.db import session
from tether.db.volume import quota as db_quotas
from tether.volume import exception
from tether.volume import quota


def get(context, project_id, usage=False):
    """Every limit of a project; with ``usage``, each with what is in
    use and reserved (``{resource: {'limit', 'in_use', 'reserved'}}``)."""
    if usage:
        return quota.get_usages(context, project_id)
    return quota.get_limits(context, project_id)


def defaults(context):
    """The limits a project has until it is given its own."""
    return quota.default_limits(context)


def validate_new_limits(context, project_id, new_limits):
    """A limit below what is already in use (and reserved) is refused."""
    usages = db_quotas.get_usages(context, project_id, for_update=True)
    for resource, limit in new_limits.items():
        in_use, reserved = usages.get(resource, (0, 0))
        if 0 <= limit < in_use + reserved:
            raise exception.InvalidInput(
                reason='quota %s of %s is below the %s in use or reserved'
                       % (resource, limit, in_use + reserved))


def check_resources(context, names, what='quota set'):
    """InvalidInput naming every key that is not a resource tether counts
    (one of every project's, or of a volume type's)."""
    known = quota.resources(context)
    unknown = sorted(set(names) - set(known))
    if unknown:
        raise exception.InvalidInput(
            reason='bad key(s) in %s: %s (tether has quotas for %s, and '
                   '%s of each volume type)'
                   % (what, ', '.join(unknown), ', '.join(quota.RESOURCES),
                      ', '.join('%s_<type name>' % k
                                for k in quota.TYPE_KINDS)))


@session.VOLUME.writer
def update(context, project_id, new_limits, skip_validation=False):
    """Set some limits of a project; return all its limits.

    Unless ``skip_validation``, the usage rows are locked and a limit below
    what is in use and reserved is refused, in the same transaction as the
    write.
    """
    check_resources(context, new_limits)
    if not skip_validation:
        validate_new_limits(context, project_id, new_limits)
    db_quotas.set_project_limits(context, project_id, new_limits)
    return quota.get_limits(context, project_id)


def revert(context, project_id):
    """Forget a project's own limits: the defaults apply again."""
    db_quotas.delete_project_limits(context, project_id)
