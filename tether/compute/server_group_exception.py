"""Exceptions of the compute service about server groups
(``/os-server-groups``) and their quotas."""

from tether import exception


class ServerGroupNotFound(exception.NotFound):
    msg_fmt = 'Instance group %(group_uuid)s could not be found.'
    error_code = 'compute.server_group.not_found'


class ServerGroupRulesInvalid(exception.Invalid):
    msg_fmt = 'Only anti-affinity policy supports rules.'
    error_code = 'compute.server_group.invalid_rules'


class ServerGroupLimitExceeded(exception.Forbidden):
    """Nova answers a server group beyond the quota with 403."""
    msg_fmt = 'Quota exceeded, too many server groups.'
    error_code = 'compute.server_group.limit_exceeded'


class ServerGroupMemberLimitExceeded(exception.Forbidden):
    """A server create into a full group (the ``server_group_members``
    quota): 403, and nothing is made."""
    msg_fmt = 'Quota exceeded, too many servers in group %(group_uuid)s.'
    error_code = 'compute.server_group.member_limit_exceeded'
