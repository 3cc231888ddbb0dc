"""Queries on the shares attached to instances (share_mapping); rows
leave this module as ShareMapping records.

Every change of a mapping's status is one conditional UPDATE that names
the states it may start from (the diagram is doc/source/shares.rst's):
two actors racing for one mapping (a detach and a start, a deny and a
server delete) cannot both win, and the loser is told so.
"""

from oslo_db import exception as db_exc
from oslo_utils import uuidutils
import sqlalchemy as sa

from tether.compute import exception
from tether.compute import share_exception
from tether.db import cas
from tether.db.compute import models
from tether.db import session
from tether.objects.compute import share_mapping as share_mapping_obj
from tether.objects import fields

db = session.COMPUTE
Status = fields.ShareMappingStatus
Mapping = models.ShareMapping
Record = share_mapping_obj.ShareMapping

# The longest reason kept (the column's length).
REASON_LENGTH = 255


def _lock_instance(context, instance_uuid, vm_states, action):
    """Hold the instance's row until the transaction ends, and check that
    it is in one of ``vm_states`` with no task: an API change of its
    state (a start, a delete) waits for this transaction, and one that
    came first is seen (InstanceInvalidState)."""
    row = context.session.execute(
        sa.select(models.Instance.vm_state, models.Instance.task_state)
        .where(models.Instance.uuid == instance_uuid,
               models.Instance.deleted.is_(False))
        .with_for_update()).first()
    if row is None:
        raise exception.InstanceNotFound(instance_id=instance_uuid)
    for attr, value, allowed in (('vm_state', row.vm_state, vm_states),
                                 ('task_state', row.task_state, (None,))):
        if value not in allowed:
            raise exception.InstanceInvalidState(
                action=action, instance_id=instance_uuid, attr=attr,
                state=value)


@db.writer
def create(context, instance_uuid, share_id, tag, export_location,
           share_proto, vm_states):
    """Record an attach starting (status ``attaching``) while the
    instance is in one of ``vm_states`` with no task. A share or a tag
    the instance has already loses on the table's unique constraints:
    ShareAlreadyAttached, ShareTagInUse."""
    _lock_instance(context, instance_uuid, vm_states, 'attach_share')
    row = Mapping(uuid=uuidutils.generate_uuid(),
                  instance_uuid=instance_uuid, share_id=share_id, tag=tag,
                  export_location=export_location, share_proto=share_proto,
                  status=Status.ATTACHING)
    try:
        with context.session.begin_nested():
            context.session.add(row)
    except db_exc.DBDuplicateEntry as exc:
        if 'tag' in (exc.columns or []):
            raise share_exception.ShareTagInUse(instance_id=instance_uuid,
                                                tag=tag)
        raise share_exception.ShareAlreadyAttached(
            share_id=share_id, instance_id=instance_uuid)
    return Record.from_db(row)


def _one(instance_uuid, share_id):
    return (Mapping.instance_uuid == instance_uuid,
            Mapping.share_id == share_id)


@db.reader
def get(context, instance_uuid, share_id):
    row = context.session.scalars(
        sa.select(Mapping).where(*_one(instance_uuid, share_id))).first()
    if row is None:
        raise share_exception.ShareMappingNotFound(
            share_id=share_id, instance_id=instance_uuid)
    return Record.from_db(row)


@db.reader
def get_by_instance(context, instance_uuid):
    """The shares of an instance, in the order they were attached."""
    return [Record.from_db(row) for row in context.session.scalars(
        sa.select(Mapping).where(Mapping.instance_uuid == instance_uuid)
        .order_by(Mapping.id))]


@db.reader
def get_by_share(context, share_id):
    """Every mapping of share ``share_id``, on any host."""
    return [Record.from_db(row) for row in context.session.scalars(
        sa.select(Mapping).where(Mapping.share_id == share_id)
        .order_by(Mapping.id))]


@db.reader
def get_by_share_on_host(context, share_id, host, statuses=None):
    """The mappings of share ``share_id`` whose instances are on compute
    host ``host`` (and in ``statuses``, if given): the users of the
    host's mount of the share, and of the host's access to it."""
    query = (sa.select(Mapping)
             .join(models.Instance,
                   models.Instance.uuid == Mapping.instance_uuid)
             .where(Mapping.share_id == share_id,
                    models.Instance.host == host,
                    models.Instance.deleted.is_(False))
             .order_by(Mapping.id))
    if statuses is not None:
        query = query.where(Mapping.status.in_(list(statuses)))
    return [Record.from_db(row) for row in context.session.scalars(query)]


@db.reader
def get_by_host(context, host, statuses):
    """The mappings in ``statuses`` of the instances on ``host`` (those a
    restarted tether-compute finds mid-operation)."""
    return [Record.from_db(row) for row in context.session.scalars(
        sa.select(Mapping)
        .join(models.Instance,
              models.Instance.uuid == Mapping.instance_uuid)
        .where(models.Instance.host == host,
               Mapping.status.in_(list(statuses)))
        .order_by(Mapping.id))]


@db.writer
def transition(context, instance_uuid, share_id, sources, target,
               reason=None, vm_states=None):
    """``status``: one of ``sources`` -> ``target``, in one conditional
    update; False if the mapping is gone or in another status. An
    ``error`` keeps ``reason`` (cut to the column's length); any other
    status clears it. With ``vm_states``, only while the instance is in
    one of them with no task (InstanceInvalidState otherwise)."""
    if vm_states is not None:
        _lock_instance(context, instance_uuid, vm_states, 'detach_share')
    values = {'status': target,
              'reason': reason[:REASON_LENGTH] if reason else None}
    return cas.update(context, Mapping,
                      list(_one(instance_uuid, share_id)) +
                      [Mapping.status.in_(list(sources))],
                      values)


@db.writer
def destroy(context, instance_uuid, share_id, sources):
    """Delete the mapping if it is in one of ``sources``; False if it is
    gone or in another status."""
    return cas.delete(context, Mapping,
                      list(_one(instance_uuid, share_id)) +
                      [Mapping.status.in_(list(sources))])
