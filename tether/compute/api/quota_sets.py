"""A project's compute quota set (``/os-quota-sets/{project_id}``, and
of one user of it with ``?user_id=``), in the API process: its limits,
with what is in use on request, the defaults, set and reverted.

A new limit must lie where Nova's settable range puts it (unless
``force``): for a project, at least what it uses and what its users'
own limits add up to; for a user, at least what the user uses and at
most what the project's limit leaves beside the other users' own. The
check runs in the transaction that writes.
"""

from tether.compute import quota
from tether.compute import quota_exception
from tether.db.compute import quota as db_quota

UNLIMITED = -1


def get(context, project_id, user_id=None, usage=False):
    """Every limit of a project (or a user of it); with ``usage``, each
    as ``{'limit', 'in_use', 'reserved'}``."""
    if usage:
        return quota.usages(context, project_id, user_id)
    return quota.limits(context, project_id, user_id)


def defaults(context):
    return quota.defaults(context)


def _unlimited(value):
    return value <= UNLIMITED


def _sub(a, b):
    return UNLIMITED if _unlimited(a) or _unlimited(b) else a - b


def _add(a, b):
    return UNLIMITED if _unlimited(a) or _unlimited(b) else a + b


def _ranges(context, project_id, user_id):
    """{resource: (minimum, maximum)} a new limit may take (Nova's
    get_settable_quotas; -1: no maximum)."""
    project = quota.usages(context, project_id)
    users = db_quota.get_user_limits(context, project_id)
    # What the project's limit leaves beside its users' own limits.
    remains = {}
    for resource, value in project.items():
        remains[resource] = value['limit'] - sum(
            own.get(resource, 0) for own in users.values())
    if not user_id:
        return {r: (max(_sub(v['limit'], remains[r]), v['in_use']),
                    UNLIMITED)
                for r, v in project.items()}
    mine = users.get(user_id, {})
    used = quota.usages(context, project_id, user_id)
    return {r: (v['in_use'], _add(remains[r], mine.get(r, 0)))
            for r, v in used.items()}


def _inf(value):
    return float('inf') if _unlimited(value) else value


def _check(context, project_id, user_id, new_limits):
    ranges = _ranges(context, project_id, user_id)
    for resource, limit in sorted(new_limits.items()):
        minimum, maximum = ranges[resource]
        if _inf(limit) < _inf(minimum):
            raise quota_exception.QuotaLimitBelowUsage(
                limit=limit, resource=resource, minimum=minimum)
        if _inf(limit) > _inf(maximum):
            raise quota_exception.QuotaLimitAboveMaximum(
                limit=limit, resource=resource, maximum=maximum)


def update(context, project_id, new_limits, user_id=None, force=False):
    """Set some limits of a project (or of a user of it: the limits Nova
    keeps per project only are set for the project); its limits after.
    Nothing is set if one of them is out of range (400)."""
    asked = dict(new_limits)

    def check(ctx):
        if not force:
            _check(ctx, project_id, user_id, asked)
    if user_id:
        mine = {r: v for r, v in new_limits.items()
                if r not in quota.PER_PROJECT}
        mine[None] = {r: v for r, v in new_limits.items()
                      if r in quota.PER_PROJECT}
        new_limits = mine
    db_quota.set_limits(context, project_id, new_limits, user_id or '',
                        check=check)
    return quota.limits(context, project_id, user_id)


def revert(context, project_id, user_id=None):
    """Forget the limits of a project and of its users (or of one user
    of it): the defaults hold again."""
    db_quota.delete_limits(context, project_id, user_id)
