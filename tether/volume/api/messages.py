"""User messages (``/messages``) in the API process: a project reads
and deletes its own; an administrator any project's."""

from tether.db.volume import message as db_messages
from tether.volume import message_field

SORT_KEYS = db_messages.SORT_KEYS
FILTERS = db_messages.FILTERS


def get(context, message_id):
    return db_messages.get(context, message_id, context.project_scope)


def get_all(context, all_tenants=False, project_id=None, filters=None,
            marker=None, limit=None, sort_keys=None, sort_dirs=None,
            offset=None):
    # As Cinder lists them: an administrator's list has every project's.
    scope = None if context.is_admin else context.project_id
    if context.is_admin and project_id:
        scope = project_id
    return db_messages.get_all(
        context, scope, filters=filters, marker=marker, limit=limit,
        sort_keys=sort_keys or ('created_at', 'id'),
        sort_dirs=sort_dirs or ('desc', 'desc'), offset=offset)


def count(context, all_tenants=False, project_id=None, filters=None):
    scope = None if context.is_admin else context.project_id
    return db_messages.count(context, scope, filters)


def delete(context, message_id):
    db_messages.destroy(context, message_id, context.project_scope)


def user_message(message):
    return message_field.user_message(message.action_id, message.detail_id)
