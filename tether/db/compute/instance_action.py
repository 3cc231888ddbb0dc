"""Instance actions and their events (os-instance-actions); rows leave
this module as InstanceAction and InstanceActionEvent objects."""

import sqlalchemy as sa

from tether.compute import exception
from tether.db import base
from tether.db.compute import models
from tether.db import keyset
from tether.db import session
from tether.objects.compute import instance_action as action_obj

db = session.COMPUTE


def action_values(context, instance_uuid, action):
    """Values of the action ``action`` that ``context`` starts now."""
    return dict(action=action, instance_uuid=instance_uuid,
                request_id=context.request_id, user_id=context.user_id,
                project_id=context.project_id, start_time=base.now())


@db.writer
def action_start(context, instance_uuid, action):
    row = models.InstanceAction(
        **action_values(context, instance_uuid, action))
    context.session.add(row)
    context.session.flush()
    return row.id


def _action_of(context, instance_uuid, request_id):
    return context.session.scalars(
        sa.select(models.InstanceAction)
        .where(models.InstanceAction.instance_uuid == instance_uuid,
               models.InstanceAction.request_id == request_id)
        .order_by(models.InstanceAction.id.desc())).first()


@db.writer
def event_start(context, instance_uuid, request_id, event, host):
    """Record that ``event`` of the action of ``request_id`` started."""
    action = _action_of(context, instance_uuid, request_id)
    if action is None:
        return None
    row = models.InstanceActionEvent(action_id=action.id, event=event,
                                     start_time=base.now(), host=host)
    context.session.add(row)
    action.updated_at = base.now()
    context.session.flush()
    return row.id


@db.writer
def event_finish(context, event_id, result, traceback=None, details=None):
    """Finish an event: result 'Success' or 'Error'; an error also marks
    its action with the message 'Error'."""
    now = base.now()
    row = context.session.get(models.InstanceActionEvent, event_id)
    if row is None:
        return
    row.finish_time = now
    row.result = result
    row.traceback = traceback
    row.details = details
    action = context.session.get(models.InstanceAction, row.action_id)
    action.updated_at = now
    if result == 'Error':
        action.message = 'Error'


@db.writer
def action_finish(context, instance_uuid, request_id):
    action = _action_of(context, instance_uuid, request_id)
    if action is not None and action.finish_time is None:
        action.finish_time = base.now()


@db.reader
def get_by_instance(context, instance_uuid, limit=None, marker=None,
                    changes_since=None, changes_before=None):
    """Actions of an instance, newest first."""
    q = sa.select(models.InstanceAction).where(
        models.InstanceAction.instance_uuid == instance_uuid)
    if changes_since is not None:
        q = q.where(models.InstanceAction.updated_at >= changes_since)
    if changes_before is not None:
        q = q.where(models.InstanceAction.updated_at <= changes_before)
    rows = keyset.page(
        context.session, q, models.InstanceAction, ('start_time', 'id'),
        ('desc', 'desc'),
        marker=marker, marker_key=models.InstanceAction.request_id,
        marker_query=sa.select(models.InstanceAction).where(
            models.InstanceAction.instance_uuid == instance_uuid),
        not_found=lambda m: exception.InstanceActionNotFound(
            request_id=m, instance_id=instance_uuid),
        limit=limit)
    return [action_obj.InstanceAction.from_db(row) for row in rows]


@db.reader
def get_by_request_id(context, instance_uuid, request_id):
    """(action, [events]) or InstanceActionNotFound."""
    action = _action_of(context, instance_uuid, request_id)
    if action is None:
        raise exception.InstanceActionNotFound(request_id=request_id,
                                               instance_id=instance_uuid)
    events = [action_obj.InstanceActionEvent.from_db(row)
              for row in context.session.scalars(
                  sa.select(models.InstanceActionEvent)
                  .where(models.InstanceActionEvent.action_id == action.id)
                  .order_by(models.InstanceActionEvent.start_time.desc(),
                            models.InstanceActionEvent.id.desc()))]
    return action_obj.InstanceAction.from_db(action), events
