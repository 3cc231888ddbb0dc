"""User messages, written where an operation fails after its 202 (the
API process's scheduler, the volume manager): what the project reads at
/messages until the message expires."""

import datetime

from oslo_config import cfg
from oslo_log import log as logging
from oslo_utils import timeutils
from oslo_utils import uuidutils

from tether.db.volume import message as db_messages
from tether.volume import message_field

CONF = cfg.CONF
LOG = logging.getLogger(__name__)
Action = message_field.Action
Detail = message_field.Detail
Resource = message_field.Resource


def record(context, action, resource_uuid, project_id, detail=None,
           exception=None, resource_type=Resource.VOLUME, level='ERROR'):
    """Write a message of ``project_id`` about ``resource_uuid``: the
    ``action`` that failed and its detail (the one ``exception`` maps
    to, else ``detail``, else an unknown error). A message that cannot
    be written is logged, never raised, so the caller still settles the
    failure it reports. Callers write it before the status a client
    waits on (``error``): who sees that status finds the message."""
    detail = message_field.detail_of(exception, detail)
    now = timeutils.utcnow()
    values = {
        'id': uuidutils.generate_uuid(), 'project_id': project_id,
        'request_id': getattr(context, 'request_id', None),
        'resource_type': resource_type, 'resource_uuid': resource_uuid,
        'action_id': action.id, 'detail_id': detail.id,
        'event_id': message_field.event_id(resource_type, action.id,
                                           detail.id),
        'message_level': level, 'created_at': now,
        'expires_at': now + datetime.timedelta(seconds=CONF.message_ttl),
    }
    try:
        db_messages.create(context, values)
    except Exception:
        LOG.exception('Could not record the user message %s of %s %s',
                      values['event_id'], resource_type, resource_uuid)


def reap(context):
    """Delete the expired messages; how many went."""
    return db_messages.destroy_expired(context)
