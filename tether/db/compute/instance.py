"""Queries on instances; every state change is a conditional UPDATE.
Instances leave this module as Instance objects."""

from oslo_config import cfg
from oslo_serialization import jsonutils
import sqlalchemy as sa

from tether.compute import exception
from tether.db import base
from tether.db import cas
from tether.db.compute import aggregate
from tether.db.compute import models
from tether.db.compute import server_group
from tether.db import keyset
from tether.db import session
from tether.objects.compute import instance as instance_obj

CONF = cfg.CONF
db = session.COMPUTE

Instance = instance_obj.Instance
_COLUMNS = Instance.column_names()


def _query(project_id=None, deleted=False, columns=False):
    """A select of instances (with ``columns``, of the columns an Instance
    object is made of: rows rather than ORM objects)."""
    q = (base.select_columns(models.Instance, _COLUMNS) if columns
         else sa.select(models.Instance))
    if project_id is not None:
        q = q.where(models.Instance.project_id == project_id)
    if deleted is not None:
        q = q.where(models.Instance.deleted == deleted)
    return q


@db.reader
def get(context, instance_uuid, project_id=None, deleted=False):
    """The instance, or InstanceNotFound (also for another project's)."""
    row = context.session.execute(
        _query(project_id, deleted, columns=True)
        .where(models.Instance.uuid == instance_uuid)).first()
    if row is None:
        raise exception.InstanceNotFound(instance_id=instance_uuid)
    return _instance(row)


def _instance(row):
    """The Instance of a row of ``_query(columns=True)``."""
    return Instance.from_columns(dict(zip(_COLUMNS, row)))


def _used_on(context, host):
    return context.session.execute(
        sa.select(sa.func.coalesce(sa.func.sum(models.Instance.memory_mb),
                                   0),
                  sa.func.coalesce(sa.func.sum(models.Instance.vcpus), 0),
                  sa.func.count())
        .where(models.Instance.host == host,
               models.Instance.deleted.is_(False))).one()


def host_usage(context, host):
    """(memory_mb, vcpus, instances) of the live instances on ``host``."""
    with db.reading(context):
        return tuple(_used_on(context, host))


def _zone_now(context, host, registered):
    """The zone of ``host`` as the transaction sees it (its aggregates',
    else the one its service registered in, else the default)."""
    return (aggregate.zone_of_host(context, host) or registered or
            CONF.default_availability_zone)


@db.writer
def create_on_host(context, values, bdms, candidates, action, group=None):
    """Insert an instance on the first of ``candidates`` with room for it.

    ``candidates`` are tether.compute.scheduler.Candidate tuples with the
    usable capacity and zone of each host, best first. The service row of
    a host is locked while its zone is read again, its free room counted
    and the instance inserted, so concurrent boots never overcommit a
    host nor land in a zone the host left meanwhile (on SQLite the writer
    lock serializes them anyway). The instance takes the zone of its host
    unless it was asked for one.

    ``group`` (a tether.compute.scheduler.GroupRule) is the server group
    the instance joins: its row is locked, the hosts of its members
    counted and the candidates ordered and filtered by its policy, and
    the instance added as a member within the group's
    ``server_group_members`` quota (ServerGroupMemberLimitExceeded: then
    nothing is inserted).

    ``values['host']`` stays None, and the instance is inserted all the
    same, when no host is left with room: the caller puts it in ERROR.
    Returns the instance object.
    """
    group_id = None
    if group is not None:
        group_id = server_group.lock(context, group.group.uuid)
        candidates = group.order(
            candidates, server_group.hosts_of_members(context, group_id))
    chosen = None
    for candidate in candidates:
        locked = context.session.execute(
            sa.select(models.ComputeService.availability_zone)
            .where(models.ComputeService.id == candidate.service_id,
                   models.ComputeService.disabled.is_(False))
            .with_for_update()).first()
        if locked is None:
            # Deleted or disabled since the candidates were listed.
            continue
        if _zone_now(context, candidate.host,
                     locked.availability_zone) != candidate.zone:
            # Its aggregates moved it to another zone meanwhile.
            continue
        used_mb, used_vcpus, _count = _used_on(context, candidate.host)
        if (used_mb + values['memory_mb'] <= candidate.memory_mb and
                used_vcpus + values['vcpus'] <= candidate.vcpus):
            chosen = candidate
            break
    if chosen is not None:
        values = dict(values, host=chosen.host, node=chosen.node)
        if not values.get('pinned_availability_zone'):
            values['availability_zone'] = chosen.zone
    row = models.Instance(**Instance.row_values(values))
    context.session.add(row)
    context.session.flush()
    if group is not None:
        server_group.add_member(context, group_id, group.group.uuid,
                                row.uuid, group.member_limit)
    for bdm in bdms:
        context.session.add(models.BlockDeviceMapping(
            instance_uuid=row.uuid, **bdm))
    context.session.add(models.InstanceAction(**action))
    context.session.flush()
    return Instance.from_db(row)


def _apply_filters(q, filters):
    for key, value in (filters or {}).items():
        if key == 'task_state_not':
            column = models.Instance.task_state
            q = q.where(sa.or_(column.is_(None), column.notin_(value)))
            continue
        column = getattr(models.Instance, key)
        if key == 'display_name':
            # Nova matches the name as a regular expression; tether as a
            # substring, which is what the CLI's --name is used for.
            q = q.where(column.contains(value, autoescape=True))
        elif isinstance(value, (list, tuple, set)):
            q = q.where(column.in_(value))
        else:
            q = q.where(column == value)
    return q


@db.reader
def get_all(context, project_id=None, filters=None, marker=None,
            limit=None, changes_since=None, deleted=False):
    """A page of instances, newest first (keyset on created_at, uuid)."""
    q = _apply_filters(_query(project_id, deleted, columns=True), filters)
    if changes_since is not None:
        q = q.where(models.Instance.updated_at >= changes_since)
    rows = keyset.page(
        context.session, q, models.Instance, ('created_at', 'uuid'),
        ('desc', 'desc'), tiebreak='uuid',
        marker=marker, marker_query=_query(project_id, None),
        marker_key=models.Instance.uuid,
        not_found=lambda m: exception.InvalidInput(
            reason='marker [%s] not found' % m),
        limit=limit, columns=True)
    return [_instance(r) for r in rows]


@db.reader
def get_by_host(context, host):
    return [Instance.from_db(r) for r in context.session.scalars(
        _query().where(models.Instance.host == host))]


def _as_tuple(states):
    return states if isinstance(states, tuple) else (states,)


def _state_of(context, instance_uuid):
    return context.session.execute(
        sa.select(models.Instance.vm_state, models.Instance.task_state,
                  models.Instance.deleted, models.Instance.locked)
        .where(models.Instance.uuid == instance_uuid)).first()


@db.writer
def update(context, instance_uuid, values, expected_vm_state=None,
           expected_task_state=(), action='update', unlocked=False):
    """Change an instance if it is in the expected states.

    ``expected_vm_state`` / ``expected_task_state`` are a value or a
    tuple of values (``None`` is a task_state value: "no task"); leave
    them out to change the instance whatever its state. With
    ``unlocked`` the instance must also not be locked (InstanceIsLocked).
    The loser of a race gets InstanceInvalidState naming the state it
    found.
    """
    where = [models.Instance.uuid == instance_uuid,
             models.Instance.deleted.is_(False)]
    if unlocked:
        where.append(models.Instance.locked.is_(False))
    if expected_vm_state is not None:
        where.append(cas.one_of(models.Instance.vm_state,
                                _as_tuple(expected_vm_state)))
    if expected_task_state != ():
        where.append(cas.one_of(models.Instance.task_state,
                                _as_tuple(expected_task_state)))
    if not cas.update(context, models.Instance, where,
                      Instance.row_values(values)):
        state = _state_of(context, instance_uuid)
        if state is None or state.deleted:
            raise exception.InstanceNotFound(instance_id=instance_uuid)
        if unlocked and state.locked:
            raise exception.InstanceIsLocked(instance_id=instance_uuid)
        if (expected_vm_state is not None and
                state.vm_state not in _as_tuple(expected_vm_state)):
            attr, value = 'vm_state', state.vm_state
        else:
            attr, value = 'task_state', state.task_state
        raise exception.InstanceInvalidState(
            action=action, instance_id=instance_uuid, attr=attr,
            state=value)
    return _reread(context, instance_uuid)


def _reread(context, instance_uuid):
    return Instance.from_db(context.session.scalars(
        sa.select(models.Instance)
        .where(models.Instance.uuid == instance_uuid)).one())


@db.writer
def soft_delete(context, instance_uuid):
    """Mark the instance deleted, if it is not yet; its volume rows go
    with it, and it leaves its server groups. Returns the instance as it
    was if this call deleted it (its quota is to be given back, in the
    same transaction: see tether.compute.instance_state), else None."""
    context.session.execute(
        sa.delete(models.BlockDeviceMapping)
        .where(models.BlockDeviceMapping.instance_uuid == instance_uuid))
    row = context.session.scalars(
        _query(deleted=False)
        .where(models.Instance.uuid == instance_uuid)).first()
    if row is None:
        return None
    instance = Instance.from_db(row)
    now = base.now()
    # The UPDATE names the state it found: of two deletes, one does it.
    result = context.session.execute(
        sa.update(models.Instance)
        .where(models.Instance.uuid == instance_uuid,
               models.Instance.deleted.is_(False))
        .values(deleted=True, deleted_at=now, terminated_at=now,
                vm_state='deleted', task_state=None, power_state=0)
        .execution_options(synchronize_session=False))
    if result.rowcount != 1:
        return None
    server_group.remove_instance(context, instance_uuid)
    return instance


@db.writer
def update_metadata(context, instance_uuid, change, expected_vm_state,
                    action='update metadata'):
    """Change an instance's metadata with ``change(old) -> new`` (which
    may raise), if the instance is in ``expected_vm_state`` with no task;
    the new metadata.

    The instance's row is locked while ``change`` runs (on SQLite the
    writer lock serializes the transaction anyway), and the UPDATE names
    the metadata it read and the states, so that no concurrent change of
    the metadata is lost and a server that started a task meanwhile is
    refused (InstanceInvalidState).
    """
    row = context.session.execute(
        sa.select(models.Instance.metadata_, models.Instance.vm_state,
                  models.Instance.task_state)
        .where(models.Instance.uuid == instance_uuid,
               models.Instance.deleted.is_(False))
        .with_for_update()).first()
    if row is None:
        raise exception.InstanceNotFound(instance_id=instance_uuid)
    before = row.metadata_
    new = change(jsonutils.loads(before) if before else {})
    text = Instance.row_values({'metadata': new})['metadata_']
    where = [models.Instance.uuid == instance_uuid,
             models.Instance.deleted.is_(False),
             cas.one_of(models.Instance.vm_state,
                        _as_tuple(expected_vm_state)),
             models.Instance.task_state.is_(None)]
    where.append(models.Instance.metadata_.is_(None) if before is None
                 else models.Instance.metadata_ == before)
    if not cas.update(context, models.Instance, where,
                      {'metadata_': text}):
        if row.vm_state not in _as_tuple(expected_vm_state):
            attr, value = 'vm_state', row.vm_state
        else:
            attr, value = 'task_state', row.task_state
        raise exception.InstanceInvalidState(
            action=action, instance_id=instance_uuid, attr=attr,
            state=value)
    return new


def _record_api_action(context, action):
    """Add the instance action ``action`` (a dict of its values) and its
    one event, ``api_<action>``, done now (Nova's event of work the API
    does itself), to the caller's transaction."""
    row = models.InstanceAction(**action)
    context.session.add(row)
    context.session.flush()
    context.session.add(models.InstanceActionEvent(
        action_id=row.id, event='api_%s' % action['action'],
        start_time=action['start_time'], finish_time=base.now(),
        result='Success'))


@db.writer
def lock(context, instance_uuid, locked_by, reason, action):
    """Lock the instance for ``locked_by`` with ``reason`` and record the
    instance action ``action`` (a dict of its values) with its event
    ``api_lock``, in one transaction; the instance.

    An owner's lock of a locked instance changes nothing (Nova's lock
    returns at once; an admin's lock stays one), and records no action.
    """
    where = [models.Instance.uuid == instance_uuid,
             models.Instance.deleted.is_(False)]
    if locked_by == 'owner':
        where.append(models.Instance.locked.is_(False))
    if cas.update(context, models.Instance, where,
                  {'locked': True, 'locked_by': locked_by,
                   'locked_reason': reason}):
        _record_api_action(context, action)
    elif _state_of(context, instance_uuid) is None:
        raise exception.InstanceNotFound(instance_id=instance_uuid)
    return _reread(context, instance_uuid)


@db.writer
def unlock(context, instance_uuid, expected_locked_by, action):
    """Unlock the instance if it is still locked by ``expected_locked_by``
    (the lock the caller's policy was checked against; None: unlocked),
    or unlocked meanwhile, and record the instance action ``action`` with
    its event ``api_unlock``, in one transaction. A lock of the other
    kind taken meanwhile is kept: InstanceLockChanged."""
    where = [models.Instance.uuid == instance_uuid,
             models.Instance.deleted.is_(False),
             cas.one_of(models.Instance.locked_by,
                        (expected_locked_by, None))]
    if not cas.update(context, models.Instance, where,
                      {'locked': False, 'locked_by': None,
                       'locked_reason': None}):
        if _state_of(context, instance_uuid) is None:
            raise exception.InstanceNotFound(instance_id=instance_uuid)
        raise exception.InstanceLockChanged(instance_id=instance_uuid)
    _record_api_action(context, action)
    return _reread(context, instance_uuid)
