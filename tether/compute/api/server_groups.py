"""Server groups (``/os-server-groups``) in the API process: a project's
groups, counted against its ``server_groups`` quota; the group a new
server joins (tether.compute.api.servers) and the groups a server is
in."""

from tether.compute import quota as compute_quota
from tether.compute import scheduler
from tether.compute import server_group_exception as sg_exception
from tether.db.compute import server_group as db_groups
from tether.objects import fields


def quota_limit(context, resource, project_id):
    """The limit of the compute quota ``resource`` (``server_groups``,
    ``server_group_members``) for ``project_id``: the project's own, its
    quota class's, or the ``[quota]`` option (-1: none)."""
    return compute_quota.limits(context, project_id)[resource]


def get(context, group_uuid):
    """Any project's group of that UUID (the caller checks the policy
    against its project), or ServerGroupNotFound."""
    return db_groups.get(context, group_uuid)


def get_all(context, project_id=None, limit=None, offset=0):
    return db_groups.get_all(context, project_id, limit=limit,
                             offset=offset)


def create(context, name, policy, rules=None):
    """A group of the caller's project; ServerGroupRulesInvalid for rules
    of another policy than anti-affinity, ServerGroupLimitExceeded beyond
    the quota."""
    if rules and policy != fields.ServerGroupPolicy.ANTI_AFFINITY:
        raise sg_exception.ServerGroupRulesInvalid()
    return db_groups.create(context, {
        'name': name, 'policy': policy,
        'rules': {k: int(v) for k, v in (rules or {}).items()},
        'project_id': context.project_id, 'user_id': context.user_id,
    }, quota_limit(context, 'server_groups', context.project_id))


def delete(context, group):
    db_groups.destroy(context, group.uuid)


def groups_of(context, instance_uuid):
    """The UUIDs of the groups the server is in (2.71's
    ``server_groups``)."""
    return db_groups.get_by_instance(context, instance_uuid)


def rule_for(context, group_uuid):
    """The GroupRule of the group a server create names (hint
    ``group``): a group of the caller's project, or of any project for
    an administrator; ServerGroupNotFound otherwise."""
    group = db_groups.get(context, group_uuid)
    if group.project_id != context.project_id and not context.is_admin:
        raise sg_exception.ServerGroupNotFound(group_uuid=group_uuid)
    return scheduler.GroupRule(group, quota_limit(
        context, 'server_group_members', group.project_id))
