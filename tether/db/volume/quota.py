"""Quota limits, usages and reservations; each change is one conditional
UPDATE."""

import datetime

from oslo_db import api as oslo_db_api
from oslo_db import exception as db_exc
from oslo_utils import uuidutils
import sqlalchemy as sa

from tether.db import base
from tether.db import session
from tether.db.volume import models
from tether.volume import exception

db = session.VOLUME

# The resources tether counts, and the option holding each default limit.
# Snapshots, backups and groups are Cinder's resources too: their limits
# are kept, shown and set as Cinder's are (clients and Tempest read them
# in every quota set), and count what the project has of them.
RESOURCES = {
    'volumes': 'quota_volumes',
    'gigabytes': 'quota_gigabytes',
    'per_volume_gigabytes': 'quota_per_volume_gigabytes',
    'snapshots': 'quota_snapshots',
    'backups': 'quota_backups',
    'backup_gigabytes': 'quota_backup_gigabytes',
    'groups': 'quota_groups',
}
# Limits that are checked, not counted (no usage row).
CHECKED_ONLY = ('per_volume_gigabytes',)


@db.reader
def get_project_limits(context, project_id):
    """The limits set for one project (without defaults)."""
    rows = context.session.execute(
        sa.select(models.Quota.resource, models.Quota.hard_limit)
        .where(models.Quota.project_id == project_id))
    return dict(rows.all())


@db.writer
def set_project_limits(context, project_id, limits):
    existing = {q.resource: q for q in context.session.scalars(
        sa.select(models.Quota).where(models.Quota.project_id == project_id))}
    for resource, hard_limit in limits.items():
        if resource in existing:
            existing[resource].hard_limit = hard_limit
        else:
            context.session.add(models.Quota(
                project_id=project_id, resource=resource,
                hard_limit=hard_limit))


@db.writer
def delete_project_limits(context, project_id):
    context.session.execute(
        sa.delete(models.Quota).where(models.Quota.project_id == project_id))


@db.reader
def get_usages(context, project_id, for_update=False):
    """{resource: (in_use, reserved)} of one project.

    ``for_update`` (inside a writer transaction) locks the rows until it
    ends, so no reservation moves them while the caller decides.
    """
    q = (sa.select(models.QuotaUsage.resource, models.QuotaUsage.in_use,
                   models.QuotaUsage.reserved)
         .where(models.QuotaUsage.project_id == project_id))
    if for_update:
        q = q.with_for_update()
    rows = context.session.execute(q)
    return {r: (u, rv) for r, u, rv in rows}


def _usage_ids(context, project_id, resources):
    """{resource: usage row id}, creating the rows a project lacks."""
    def read():
        return dict(context.session.execute(
            sa.select(models.QuotaUsage.resource, models.QuotaUsage.id)
            .where(models.QuotaUsage.project_id == project_id,
                   models.QuotaUsage.resource.in_(resources))).all())
    ids = read()
    missing = set(resources) - set(ids)
    if missing:
        for resource in missing:
            context.session.add(models.QuotaUsage(
                project_id=project_id, resource=resource, in_use=0,
                reserved=0))
        context.session.flush()
        ids = read()
    return ids


def _charge(context, project_id, deltas, limits, column):
    """Add each delta to ``column`` (in_use or reserved) within its limit.

    Each positive delta is one ``UPDATE quota_usages SET <column> = <column>
    + n WHERE in_use + reserved + n <= limit``: of two racing requests that
    would together pass the limit, one loses and gets OverQuota. A negative
    delta always succeeds. The caller's transaction makes it all or
    nothing. Returns {resource: usage id}.
    """
    usage = models.QuotaUsage
    now = base.now()
    usage_ids = _usage_ids(context, project_id, list(deltas))
    for resource in sorted(deltas):
        delta = deltas[resource]
        q = sa.update(usage).where(usage.id == usage_ids[resource])
        limit = limits.get(resource, -1)
        if delta > 0 and limit >= 0:
            q = q.where(usage.in_use + usage.reserved + delta <= limit)
        result = context.session.execute(
            q.values({column: getattr(usage, column) + delta,
                      'updated_at': now})
            .execution_options(synchronize_session=False))
        if result.rowcount != 1:
            in_use, reserved = context.session.execute(
                sa.select(usage.in_use, usage.reserved)
                .where(usage.id == usage_ids[resource])).one()
            raise exception.OverQuota(resource=resource, requested=delta,
                                      limit=limit, in_use=in_use,
                                      reserved=reserved)
    return usage_ids


def retry_on_duplicate(fn):
    # Two transactions may both create a project's first usage row.
    return oslo_db_api.wrap_db_retry(
        max_retries=5, retry_on_deadlock=True,
        exception_checker=lambda e: isinstance(e, db_exc.DBDuplicateEntry))(fn)


@db.reader
def get_class_limits(context, class_name):
    """The limits set for a quota class (without defaults)."""
    rows = context.session.execute(
        sa.select(models.QuotaClass.resource, models.QuotaClass.hard_limit)
        .where(models.QuotaClass.class_name == class_name))
    return dict(rows.all())


@retry_on_duplicate
@db.writer
def set_class_limits(context, class_name, limits):
    qc = models.QuotaClass
    now = base.now()
    for resource, hard_limit in limits.items():
        updated = context.session.execute(
            sa.update(qc).where(qc.class_name == class_name,
                                qc.resource == resource)
            .values(hard_limit=hard_limit, updated_at=now)
            .execution_options(synchronize_session=False)).rowcount
        if not updated:
            with context.session.begin_nested():
                context.session.add(qc(class_name=class_name,
                                       resource=resource,
                                       hard_limit=hard_limit))


def rename_resources(context, renames):
    """Rename resources ({old: new}: those of a volume type renamed) in
    the limits, quota classes, usages and reservations, in the caller's
    transaction (as Cinder does)."""
    for model in (models.Quota, models.QuotaClass, models.QuotaUsage,
                  models.Reservation):
        for old, new in renames.items():
            context.session.execute(
                sa.update(model).where(model.resource == old)
                .values(resource=new)
                .execution_options(synchronize_session=False))


def consume_in_transaction(context, project_id, deltas, limits):
    """Count ``deltas`` as in use at once, in the caller's transaction.

    For work that is done in the same transaction (a volume row created):
    reserve and commit in one step, so no path can leave a reservation.
    """
    deltas = {r: d for r, d in deltas.items() if d}
    if deltas:
        _charge(context, project_id, deltas, limits, 'in_use')


@retry_on_duplicate
@db.writer
def reserve(context, project_id, deltas, limits, expire_seconds,
            resource_id=None):
    """Reserve ``deltas`` ({resource: n}) against ``limits``; list of uuids.

    For work that finishes elsewhere (a manager extending a volume): the
    reservations are committed or rolled back when it does.
    """
    deltas = {r: d for r, d in deltas.items() if d}
    if not deltas:
        return []
    usage_ids = _charge(context, project_id, deltas, limits, 'reserved')
    expire = base.now() + datetime.timedelta(seconds=expire_seconds)
    uuids = []
    for resource in sorted(deltas):
        reservation_uuid = uuidutils.generate_uuid()
        context.session.add(models.Reservation(
            uuid=reservation_uuid, usage_id=usage_ids[resource],
            project_id=project_id, resource=resource,
            delta=deltas[resource], expire=expire, resource_id=resource_id))
        uuids.append(reservation_uuid)
    context.session.flush()
    return uuids


def _settle(context, reservation_uuids, commit):
    """Commit or roll back reservations; already-settled ones are skipped."""
    if not reservation_uuids:
        return
    rows = context.session.execute(
        sa.select(models.Reservation.uuid, models.Reservation.usage_id,
                  models.Reservation.delta)
        .where(models.Reservation.uuid.in_(list(reservation_uuids)))).all()
    usage = models.QuotaUsage
    now = base.now()
    for uuid, usage_id, delta in rows:
        deleted = context.session.execute(
            sa.delete(models.Reservation)
            .where(models.Reservation.uuid == uuid)
            .execution_options(synchronize_session=False)).rowcount
        if not deleted:
            continue
        values = {'reserved': usage.reserved - delta, 'updated_at': now}
        if commit:
            values['in_use'] = usage.in_use + delta
        context.session.execute(
            sa.update(usage).where(usage.id == usage_id).values(**values)
            .execution_options(synchronize_session=False))


def commit_in_transaction(context, reservation_uuids):
    _settle(context, reservation_uuids, commit=True)


def rollback_in_transaction(context, reservation_uuids):
    _settle(context, reservation_uuids, commit=False)


@db.writer
def commit(context, reservation_uuids):
    _settle(context, reservation_uuids, commit=True)


@db.writer
def rollback(context, reservation_uuids):
    _settle(context, reservation_uuids, commit=False)


def release_in_transaction(context, project_id, deltas):
    """Give back usage (a deleted volume) inside the caller's transaction."""
    usage = models.QuotaUsage
    now = base.now()
    for resource, delta in deltas.items():
        context.session.execute(
            sa.update(usage).where(usage.project_id == project_id,
                                   usage.resource == resource)
            .values(in_use=sa.case((usage.in_use - delta < 0, 0),
                                   else_=usage.in_use - delta),
                    updated_at=now)
            .execution_options(synchronize_session=False))


@db.reader
def get_reservations_for(context, resource_id):
    return list(context.session.scalars(
        sa.select(models.Reservation.uuid)
        .where(models.Reservation.resource_id == resource_id)))


@db.writer
def expire(context, protected_resource_ids=()):
    """Roll back expired reservations; return how many.

    Reservations of an operation that is still in flight (their resource_id
    in ``protected_resource_ids``) are left for its owner to settle.
    """
    q = sa.select(models.Reservation.uuid).where(
        models.Reservation.expire < base.now())
    if protected_resource_ids:
        q = q.where(sa.or_(
            models.Reservation.resource_id.is_(None),
            models.Reservation.resource_id.not_in(
                list(protected_resource_ids))))
    uuids = list(context.session.scalars(q))
    _settle(context, uuids, commit=False)
    return len(uuids)


@db.reader
def reservation_delta(context, reservation_uuids, resource):
    """The sum of the deltas of some reservations for one resource."""
    if not reservation_uuids:
        return 0
    return int(context.session.scalar(
        sa.select(sa.func.coalesce(sa.func.sum(models.Reservation.delta), 0))
        .where(models.Reservation.uuid.in_(list(reservation_uuids)),
               models.Reservation.resource == resource)))
