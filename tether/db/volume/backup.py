"""Queries on backups and their metadata; each status change is
conditional. Backups leave this module as Backup objects."""

import sqlalchemy as sa

from tether.db import base
from tether.db import cas
from tether.db import key_values
from tether.db import keyset
from tether.db import session
from tether.db.volume import models
from tether.objects import fields
from tether.objects.volume import backup as backup_obj
from tether.volume import backup_exception as exception

db = session.VOLUME
B = fields.BackupStatus
M = models.Backup
SORT_KEYS = ('id', 'name', 'description', 'status', 'volume_id', 'size',
             'created_at', 'updated_at', 'project_id', 'data_timestamp')


def _query(project_id=None):
    q = sa.select(M)
    if project_id is not None:
        q = q.where(M.project_id == project_id)
    return q


def _get(context, backup_id, project_id=None):
    row = context.session.scalars(
        _query(project_id).where(M.id == backup_id)).first()
    if row is None:
        raise exception.BackupNotFound(backup_id=backup_id)
    return row


def get_in_transaction(context, backup_id, project_id=None):
    context.session.expire_all()
    return backup_obj.Backup.from_db(_get(context, backup_id, project_id))


@db.reader
def get(context, backup_id, project_id=None):
    """The backup, or BackupNotFound (also when another project owns
    it)."""
    return backup_obj.Backup.from_db(_get(context, backup_id, project_id))


def exists_in_transaction(context, backup_id):
    return context.session.scalar(
        sa.select(sa.func.count(M.id)).where(M.id == backup_id)) > 0


def create_in_transaction(context, values, metadata=None):
    row = M(**values)
    row.backup_metadata = [models.BackupMetadata(key=k, value=v)
                           for k, v in (metadata or {}).items()]
    context.session.add(row)
    context.session.flush()
    return backup_obj.Backup.from_db(row)


def _apply_filters(q, filters):
    for key, value in filters.items():
        column = getattr(M, key)
        if isinstance(value, (list, tuple)):
            q = q.where(column.in_(list(value)))
        else:
            q = q.where(column == value)
    return q


@db.reader
def get_all(context, project_id=None, filters=None, marker=None, limit=None,
            sort_keys=('created_at', 'id'), sort_dirs=('desc', 'desc'),
            offset=None):
    """One page of backups, in a stable order (keyset pagination)."""
    q = _apply_filters(_query(project_id), filters or {})
    rows = keyset.page(
        context.session, q, M, sort_keys, sort_dirs, marker=marker,
        marker_query=_query(project_id),
        not_found=lambda m: exception.BackupMarkerNotFound(marker=m),
        limit=limit, offset=offset)
    return [backup_obj.Backup.from_db(row) for row in rows]


@db.reader
def count(context, project_id=None, filters=None):
    q = _apply_filters(sa.select(sa.func.count(M.id)).select_from(M),
                       filters or {})
    if project_id is not None:
        q = q.where(M.project_id == project_id)
    return int(context.session.scalar(q))


@db.reader
def get_all_by_host(context, host, statuses):
    """The backups of one tether-backup in ``statuses``, oldest first."""
    return [backup_obj.Backup.from_db(row) for row in context.session.scalars(
        sa.select(M).where(M.host == host, M.status.in_(statuses))
        .order_by(M.created_at, M.id))]


@db.reader
def restoring_into(context, volume_id):
    """The backup being restored into the volume, or None."""
    row = context.session.scalars(
        sa.select(M).where(M.restore_volume_id == volume_id,
                           M.status == B.RESTORING)).first()
    return backup_obj.Backup.from_db(row) if row is not None else None


def latest_in_transaction(context, volume_id, project_id, before=None):
    """(the newest available backup of the volume by the time of its
    data, older than ``before`` if given, or None; whether the volume
    has backups at all) — the parent of an incremental backup, as
    Cinder chooses it."""
    base_q = sa.select(M).where(M.volume_id == volume_id,
                                M.project_id == project_id)
    has_any = context.session.scalars(base_q.limit(1)).first() is not None
    q = base_q.where(M.status == B.AVAILABLE)
    if before is not None:
        q = q.where(M.data_timestamp < before)
    row = context.session.scalars(
        q.order_by(M.data_timestamp.desc(), M.created_at.desc(),
                   M.id.desc()).limit(1)).first()
    return (backup_obj.Backup.from_db(row) if row is not None else None,
            has_any)


@db.reader
def latest(context, volume_id, project_id, before=None):
    return latest_in_transaction(context, volume_id, project_id, before)


def add_dependent_in_transaction(context, parent_id, statuses=(B.AVAILABLE,)):
    """Count one more backup standing on ``parent_id`` if it is still in
    ``statuses``; True if it was."""
    return cas.update(context, M, [M.id == parent_id,
                                   M.status.in_(statuses)],
                      {'num_dependent_backups': M.num_dependent_backups + 1})


def _remove_dependent(context, parent_id):
    context.session.execute(
        sa.update(M).where(M.id == parent_id, M.num_dependent_backups > 0)
        .values(num_dependent_backups=M.num_dependent_backups - 1)
        .execution_options(synchronize_session=False))


def _conditional_update(context, backup_id, values, expected_statuses,
                        project_id=None, extra=()):
    where = [M.id == backup_id, *extra]
    if expected_statuses is not None:
        where.append(M.status.in_(expected_statuses))
    if project_id is not None:
        where.append(M.project_id == project_id)
    return cas.update(context, M, where, values)


def conditional_update_in_transaction(context, backup_id, values,
                                      expected_statuses):
    return _conditional_update(context, backup_id, values,
                               expected_statuses)


@db.writer
def conditional_update(context, backup_id, values, expected_statuses):
    """UPDATE … WHERE status IN expected; True if this caller won."""
    return _conditional_update(context, backup_id, values,
                               expected_statuses)


def end_restore_in_transaction(context, backup_id, volume_id):
    """``available`` again if still restoring into ``volume_id``."""
    return _conditional_update(
        context, backup_id, {'status': B.AVAILABLE}, [B.RESTORING],
        extra=(M.restore_volume_id == volume_id,))


def transition_in_transaction(context, backup_id, values, expected_statuses,
                              project_id=None):
    """A conditional update that raises InvalidBackupStatus (naming the
    status it found) when it loses; the backup as it left it."""
    if not _conditional_update(context, backup_id, values,
                               expected_statuses, project_id):
        current = _get(context, backup_id, project_id)
        raise exception.InvalidBackupStatus(
            backup_id=backup_id, status=current.status,
            expected=' or '.join(expected_statuses))
    return get_in_transaction(context, backup_id)


@db.writer
def transition(context, backup_id, values, expected_statuses,
               project_id=None):
    return transition_in_transaction(context, backup_id, values,
                                     expected_statuses, project_id)


def claim_delete_in_transaction(context, backup_id, expected_statuses,
                                project_id=None):
    """``deleting`` if in ``expected_statuses`` and no backup stands on
    it (BackupHasDependents, InvalidBackupStatus otherwise)."""
    if _conditional_update(context, backup_id, {'status': B.DELETING},
                           expected_statuses, project_id,
                           extra=(M.num_dependent_backups == 0,)):
        return get_in_transaction(context, backup_id)
    current = _get(context, backup_id, project_id)
    if current.num_dependent_backups and \
            current.status in expected_statuses:
        raise exception.BackupHasDependents(
            backup_id=backup_id, count=current.num_dependent_backups)
    raise exception.InvalidBackupStatus(
        backup_id=backup_id, status=current.status,
        expected=' or '.join(expected_statuses))


@db.writer
def update(context, backup_id, values, metadata=None, project_id=None):
    """Change columns (and replace the metadata, if given)."""
    if not _conditional_update(context, backup_id,
                               dict(values, updated_at=base.now()), None,
                               project_id):
        raise exception.BackupNotFound(backup_id=backup_id)
    if metadata is not None:
        key_values.write(context.session, models.BackupMetadata,
                         'backup_id', backup_id, metadata,
                         delete_others=True)
    return get_in_transaction(context, backup_id)


def fail_create_in_transaction(context, backup_id, fail_reason):
    """A create that failed: ``error`` with its reason, no longer holding
    quota, if it was still ``creating`` and held it; True if so (the
    caller gives the quota back in the same transaction)."""
    return cas.update(
        context, M, [M.id == backup_id, M.status == B.CREATING,
                     M.use_quota.is_(True)],
        {'status': B.ERROR, 'use_quota': False,
         'fail_reason': fail_reason[:255]})


def destroy_in_transaction(context, backup, expected_statuses):
    """Delete the row if its status is still expected (its parent counts
    one child less); True if it went."""
    gone = cas.delete(context, M, [M.id == backup.id,
                                   M.status.in_(expected_statuses)])
    if gone and backup.parent_id:
        _remove_dependent(context, backup.parent_id)
    return gone
