"""The actions of a server and their events, as the API shows them."""

from tether.compute import exception
from tether.db.compute import instance as db_instances
from tether.db.compute import instance_action as db_actions


def get_instance(context, instance_uuid, include_deleted=False):
    """The server of the caller's project (any project for admins), or
    InstanceNotFound; ``include_deleted`` finds deleted servers too."""
    return db_instances.get(context, instance_uuid,
                            project_id=context.project_scope,
                            deleted=None if include_deleted else False)


def get_actions(context, instance, limit=None, marker=None,
                changes_since=None, changes_before=None):
    """The actions of a server, newest first; ``marker`` is the request
    id of the last action of the previous page."""
    try:
        return db_actions.get_by_instance(
            context, instance.uuid, limit=limit, marker=marker,
            changes_since=changes_since, changes_before=changes_before)
    except exception.InstanceActionNotFound:
        raise exception.InvalidInput(reason='marker [%s] not found'
                                     % marker)


def get_action(context, instance, request_id):
    """(action, events) or InstanceActionNotFound."""
    return db_actions.get_by_request_id(context, instance.uuid, request_id)
