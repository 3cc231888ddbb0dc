"""The compute quota engine: every resource of Nova's quota sets with
its default, the limits of a project (or one user of it) over the
defaults, what is in use, and the check of a server's instances, cores
and ram, counted exactly in the transaction that inserts or deletes it
(tether.db.compute.quota; the API's reads and changes of limits are
tether.compute.api.quota_sets and quota_class_sets).

A limit is, first found: the user's own (``?user_id=``), the project's,
the ``default`` quota class's, the ``[quota]`` option.
"""

from oslo_config import cfg

from tether.compute import quota_exception
from tether.db.compute import quota as db_quota

CONF = cfg.CONF

# Nova's resources and the [quota] option of each default; the network
# ones Nova keeps (unlimited, -1) so that its answers below 2.36 and
# 2.50 keep their keys.
_OPTIONS = {
    'cores': 'cores',
    'fixed_ips': None,
    'floating_ips': None,
    'injected_file_content_bytes': 'injected_file_content_bytes',
    'injected_file_path_bytes': 'injected_file_path_length',
    'injected_files': 'injected_files',
    'instances': 'instances',
    'key_pairs': 'key_pairs',
    'metadata_items': 'metadata_items',
    'ram': 'ram',
    'security_group_rules': None,
    'security_groups': None,
    'server_group_members': 'server_group_members',
    'server_groups': 'server_groups',
}
RESOURCES = tuple(sorted(_OPTIONS))
NETWORK = ('fixed_ips', 'floating_ips', 'security_group_rules',
           'security_groups')
PERSONALITY = ('injected_file_content_bytes', 'injected_file_path_bytes',
               'injected_files')
SERVER_GROUPS = ('server_group_members', 'server_groups')
# What a server uses, counted per project and per user of it.
INSTANCE_RESOURCES = ('cores', 'instances', 'ram')
# Limits Nova keeps per project only: one set "for a user" is the
# project's.
PER_PROJECT = ('fixed_ips', 'floating_ips')
DEFAULT_CLASS = 'default'


def config_defaults():
    return {r: CONF.quota[o] if o else -1 for r, o in _OPTIONS.items()}


def class_limits(context, class_name):
    """The limits of a quota class: its own, else the ``[quota]``
    options (as Nova, also for a class other than ``default``)."""
    limits = config_defaults()
    limits.update(_known(db_quota.get_class_limits(context, class_name)))
    return limits


def defaults(context):
    """The limits of a project that has none of its own."""
    return class_limits(context, DEFAULT_CLASS)


def _known(rows):
    return {r: v for r, v in rows.items() if r in _OPTIONS}


def limits(context, project_id, user_id=None):
    """Every limit of a project, or of one user of it."""
    out = defaults(context)
    out.update(_known(db_quota.get_limits(context, project_id)))
    if user_id:
        out.update(_known(db_quota.get_limits(context, project_id,
                                              user_id)))
    return out


def usages(context, project_id, user_id=None):
    """{resource: {'limit', 'in_use', 'reserved'}} of a project or of
    one user of it. A server's instances, cores and ram are in use, and
    a project's server groups (as Nova, which shows key pairs and server
    group members as 0 here); nothing is ever reserved."""
    used = db_quota.in_use(context, INSTANCE_RESOURCES, project_id,
                           user_id or '')
    if not user_id:
        used.update(db_quota.in_use(context, ('server_groups',),
                                    project_id))
    return {r: {'limit': limit, 'in_use': used.get(r, 0), 'reserved': 0}
            for r, limit in limits(context, project_id, user_id).items()}


# Servers ---------------------------------------------------------------------

def instance_deltas(vcpus, memory_mb, count=1):
    return {'instances': count, 'cores': count * vcpus,
            'ram': count * memory_mb}


def _raise_over(deltas, over, limits_of):
    """TooManyInstances naming, in Nova's words, each resource of
    ``over`` ({resource: in use}) with what was asked and its limit."""
    names = sorted(over)
    raise quota_exception.TooManyInstances(
        overs=', '.join(names),
        req=', '.join(str(deltas[r]) for r in names),
        used=', '.join(str(over[r]) for r in names),
        allowed=', '.join(str(limits_of[r]) for r in names))


def _user_limits(context, project_id, user_id):
    """The instance limits the user has of its own (the project's limits
    hold for all its users together)."""
    own = db_quota.get_limits(context, project_id, user_id)
    return {r: own[r] for r in INSTANCE_RESOURCES if r in own}


def check_instances(context, project_id, user_id, deltas):
    """TooManyInstances if ``deltas`` would pass a limit now: a check
    before anything is made for a server. ``consume_instances`` counts
    them, race-free."""
    project_limits = limits(context, project_id)
    scopes = [(project_limits, '')]
    own = _user_limits(context, project_id, user_id)
    if own:
        scopes.append((own, user_id))
    for limits_of, scope_user in scopes:
        used = db_quota.in_use(context, INSTANCE_RESOURCES, project_id,
                               scope_user)
        over = {r: used[r] for r, limit in limits_of.items()
                if r in deltas and 0 <= limit < used[r] + deltas[r]}
        if over:
            _raise_over(deltas, over, limits_of)


def consume_instances(context, project_id, user_id, deltas):
    """Count ``deltas`` (``instance_deltas``) for the project and for
    its user, within their limits, in the caller's write transaction
    (the one that inserts the server); TooManyInstances (the caller's
    transaction takes back what was counted) if that would pass one."""
    project_limits = limits(context, project_id)
    over = db_quota.consume(context, deltas, project_limits, project_id)
    if over:
        _raise_over(deltas, over, project_limits)
    own = _user_limits(context, project_id, user_id)
    over = db_quota.consume(context, deltas, own, project_id, user_id)
    if over:
        _raise_over(deltas, over, own)


def release_instances(context, project_id, user_id, deltas):
    """Take back what a server counted, in the caller's transaction (the
    one that marks it deleted)."""
    db_quota.release(context, deltas, project_id)
    db_quota.release(context, deltas, project_id, user_id)


# Limits checked, not counted ---------------------------------------------

def limit_of(context, resource, project_id, user_id=None):
    """The limit of one resource for a project (or a user of it)."""
    return limits(context, project_id, user_id)[resource]
