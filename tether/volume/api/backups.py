"""Backups (``/backups``) in the API process: reads, create, update,
delete and the administrators' reset (restores: backup_restores.py;
export and import: backup_records.py).

A create claims, in one transaction, the volume (``available`` or, with
``force``, ``in-use`` -> ``backing-up``, its status kept as its
previous) or the snapshot it reads (``available`` -> ``backing-up``),
the parent of an incremental backup (the newest available backup of the
volume, which counts one more backup standing on it), and the quota
(``backups``, ``backup_gigabytes``), and inserts the backup
``creating``; then a tether-backup makes it (tether.volume.backup).
"""

from oslo_log import log as logging
from oslo_utils import uuidutils

from tether.db import base
from tether.db import session
from tether.db.volume import backup as db_backups
from tether.db.volume import quota as db_quotas
from tether.db.volume import snapshot as db_snapshots
from tether.db.volume import volume as db_volumes
from tether.objects import fields
from tether.volume import backup_exception
from tether.volume import backup_state
from tether.volume.backup import hosts
from tether.volume.backup import rpcapi as backup_rpcapi
from tether.volume import exception
from tether.volume import quota
from tether.volume import rpcapi as volume_rpcapi

LOG = logging.getLogger(__name__)
B = fields.BackupStatus
VS = fields.VolumeStatus
SS = fields.SnapshotStatus
SORT_KEYS = db_backups.SORT_KEYS


def get(context, backup_id):
    return db_backups.get(context, backup_id, context.project_scope)


def get_all(context, all_tenants=False, project_id=None, filters=None,
            marker=None, limit=None, sort_keys=None, sort_dirs=None,
            offset=None):
    return db_backups.get_all(
        context, context.list_scope(all_tenants, project_id),
        filters=filters, marker=marker, limit=limit,
        sort_keys=sort_keys or ('created_at', 'id'),
        sort_dirs=sort_dirs or ('desc', 'desc'), offset=offset)


def count(context, all_tenants=False, project_id=None, filters=None):
    return db_backups.count(
        context, context.list_scope(all_tenants, project_id), filters)


def _check_container(container):
    """A container is a directory below the repository's root."""
    if container is None:
        return
    parts = container.replace('\\', '/').split('/')
    if container.startswith('/') or '..' in parts or \
            not container.strip('/. '):
        raise exception.InvalidInput(
            reason='container %r must name a directory below the backup '
                   'repository: a relative path without ".."' % container)


def _source(context, volume, snapshot_id, force):
    """The snapshot a create reads (or None: the volume); 400 for one of
    another volume, or a source in a status that cannot be read."""
    if snapshot_id is not None:
        snapshot = db_snapshots.get(context, snapshot_id,
                                    context.project_scope)
        if snapshot.volume_id != volume.id:
            raise exception.InvalidVolume(
                reason='volume %s does not match snapshot %s\'s volume %s'
                       % (volume.id, snapshot_id, snapshot.volume_id))
        if snapshot.status != SS.AVAILABLE:
            raise exception.InvalidSnapshotStatus(
                snapshot_id=snapshot_id, status=snapshot.status,
                expected=SS.AVAILABLE)
        return snapshot
    if volume.status not in (VS.AVAILABLE, VS.IN_USE):
        raise exception.InvalidVolume(
            reason='volume to be backed up must be available or in-use, '
                   'but the current status is "%s"' % volume.status)
    if volume.status == VS.IN_USE and not force:
        raise exception.InvalidVolume(
            reason='backing up an in-use volume must use the force flag')
    return None


@session.VOLUME.writer
def _claim_source(context, volume, snapshot):
    """``backing-up``: the snapshot, or the volume (its status kept as
    its previous one), still in the status the request read."""
    if snapshot is not None:
        db_snapshots.transition_in_transaction(
            context, snapshot.id, {'status': SS.BACKING_UP},
            [SS.AVAILABLE])
    elif not db_volumes.conditional_update(
            context, volume.id, {'status': VS.BACKING_UP,
                                 'previous_status': volume.status},
            [volume.status]):
        current = db_volumes.get(context, volume.id)
        raise exception.InvalidVolumeStatus(
            volume_id=volume.id, status=current.status,
            expected=volume.status)


def _parent_in_transaction(context, volume, snapshot, project_id):
    """The parent of an incremental backup, held (it counts one more
    child); InvalidBackup if there is none."""
    parent, _any = db_backups.latest_in_transaction(
        context, volume.id, project_id,
        before=snapshot.created_at.replace(tzinfo=None)
        if snapshot is not None else None)
    if parent is None or not db_backups.add_dependent_in_transaction(
            context, parent.id):
        raise backup_exception.InvalidBackup(
            reason='no backups available to do an incremental backup')
    if volume.size > parent.size:
        raise backup_exception.InvalidBackup(
            reason='the volume grew from %sG to %sG since its last backup: '
                   'make a full backup' % (parent.size, volume.size))
    return parent


@db_quotas.retry_on_duplicate
@session.VOLUME.writer
def _insert_counted(context, volume, snapshot, values, metadata, limits,
                    incremental):
    """Claim the source and the parent, count the quota, insert the
    backup: one transaction."""
    _claim_source(context, volume, snapshot)
    if incremental:
        values['parent_id'] = _parent_in_transaction(
            context, volume, snapshot, values['project_id']).id
    db_quotas.consume_in_transaction(context, values['project_id'],
                                     backup_state.quota_of(values), limits)
    return db_backups.create_in_transaction(context, values, metadata)


def create(context, volume_id, name=None, description=None, container=None,
           incremental=False, force=False, snapshot_id=None, metadata=None,
           availability_zone=None):
    """A backup of the volume (or of its snapshot), made by a
    tether-backup of ``availability_zone`` (any, if None)."""
    volume = db_volumes.get(context, volume_id, context.project_scope)
    snapshot = _source(context, volume, snapshot_id, force)
    _check_container(container)
    volume_rpcapi.get().check_backup_calls('backing up a volume')
    prefer = None
    if incremental:
        latest, _any = db_backups.latest(context, volume.id,
                                         context.project_id)
        prefer = latest.host if latest is not None else None
    host, zone = hosts.choose(context, 'a backup', availability_zone,
                              prefer=prefer)
    now = base.now()
    values = {
        'id': uuidutils.generate_uuid(),
        'project_id': context.project_id, 'user_id': context.user_id,
        'volume_id': volume.id, 'snapshot_id': snapshot_id,
        'host': host, 'availability_zone': zone,
        'name': name, 'description': description, 'container': container,
        'status': B.CREATING, 'size': volume.size, 'object_count': 0,
        'created_at': now, 'use_quota': True,
        'data_timestamp': snapshot.created_at.replace(tzinfo=None)
        if snapshot is not None else now,
    }
    limits = quota.get_limits(context, context.project_id)
    backup = _insert_counted(context, volume, snapshot, values,
                             metadata or {}, limits, incremental)
    try:
        backup_rpcapi.get().create_backup(context, backup)
    except Exception:
        LOG.exception('Could not cast create of backup %s', backup.id)
        backup_state.fail_create(context, backup,
                                 'no backup service took it')
        backup = db_backups.get(context, backup.id)
    return backup


def update(context, backup_id, values, metadata=None):
    return db_backups.update(context, backup_id, values, metadata,
                             context.project_scope)


def delete(context, backup_id, force=False):
    """``deleting`` (from available or error; with ``force``, an
    administrator's os-force_delete, from any status: a backup being
    made or restored stops), then a tether-backup removes its data;
    refused while incremental backups stand on it. A backup that never
    wrote anything goes at once."""
    backup = get(context, backup_id)
    statuses = B.ALL if force else B.DELETABLE
    if backup.service_metadata is None and backup.status in B.DELETABLE:
        with session.VOLUME.writing(context):
            backup = db_backups.claim_delete_in_transaction(
                context, backup_id, statuses, context.project_scope)
            backup_state.destroy_in_transaction(context, backup,
                                                [B.DELETING])
        return
    host, _zone = hosts.choose(context, 'deleting a backup',
                               prefer=backup.host)
    with session.VOLUME.writing(context):
        backup = db_backups.claim_delete_in_transaction(
            context, backup_id, statuses, context.project_scope)
        db_backups.conditional_update_in_transaction(
            context, backup_id, {'host': host}, [B.DELETING])
    backup.host = host
    backup_rpcapi.get().delete_backup(context, backup)


def reset_status(context, backup_id, status):
    """An administrator's os-reset_status (available or error); work a
    tether-backup does on it stops at its next piece."""
    db_backups.update(context, backup_id, {'status': status})
