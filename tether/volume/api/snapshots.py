"""Snapshots (``/snapshots``) in the API process: reads, create, update,
delete, their metadata and the administrators' actions.

A create counts the snapshot against the project's ``snapshots`` and
``gigabytes`` (the volume's size, as Cinder counts it) in the transaction
that inserts it, after a conditional UPDATE that finds the volume still
``available`` or, where allowed, ``in-use`` (and holds its row: a delete
of the volume that comes at the same time either sees the snapshot or
makes the create fail). The volume's backend makes it, with the compute
host of its server if it is attached (tether.volume.ops.snapshots).
"""

from oslo_log import log as logging
from oslo_utils import uuidutils

from tether.db import base
from tether.db import session
from tether.db.volume import quota as db_quotas
from tether.db.volume import snapshot as db_snapshots
from tether.db.volume import volume as db_volumes
from tether.objects import fields
from tether.volume.api import services
from tether.volume.api import volume_sources
from tether.volume import exception
from tether.volume import group_exception
from tether.volume import quota
from tether.volume import rpcapi
from tether.volume import snapshot_state

LOG = logging.getLogger(__name__)
S = fields.SnapshotStatus
VS = fields.VolumeStatus
SORT_KEYS = db_snapshots.SORT_KEYS


def get(context, snapshot_id):
    return db_snapshots.get(context, snapshot_id, context.project_scope)


def get_all(context, all_tenants=False, project_id=None, filters=None,
            marker=None, limit=None, sort_keys=None, sort_dirs=None,
            offset=None):
    return db_snapshots.get_all(
        context, context.list_scope(all_tenants, project_id),
        filters=filters, marker=marker, limit=limit,
        sort_keys=sort_keys or ('created_at', 'id'),
        sort_dirs=sort_dirs or ('desc', 'desc'), offset=offset)


def count(context, all_tenants=False, project_id=None, filters=None):
    return db_snapshots.count(
        context, context.list_scope(all_tenants, project_id), filters)


@db_quotas.retry_on_duplicate
@session.VOLUME.writer
def _insert_counted(context, volume, values, metadata, limits, statuses):
    """Hold the volume (still in one of ``statuses``), count the snapshot
    against the quota and insert it: one transaction."""
    if not db_volumes.conditional_update(
            context, volume.id, {'updated_at': base.now()}, statuses,
            context.project_scope):
        current = db_volumes.get(context, volume.id, context.project_scope)
        raise exception.InvalidVolumeStatus(
            volume_id=volume.id, status=current.status,
            expected=', '.join(statuses))
    db_quotas.consume_in_transaction(context, values['project_id'],
                                     snapshot_state.quota_of(context, values),
                                     limits)
    return db_snapshots.create_in_transaction(context, values, metadata)


def create(context, volume_id, name=None, description=None, metadata=None,
           allow_in_use=False):
    """A snapshot of an ``available`` volume, or, with ``allow_in_use``
    (force below 3.66, always from it), of an ``in-use`` one: the
    compute host of its server takes it (tether.volume.ops.
    assisted_snapshots)."""
    volume = db_volumes.get(context, volume_id, context.project_scope)
    statuses = [VS.AVAILABLE, VS.IN_USE] if allow_in_use else [VS.AVAILABLE]
    if volume.status == VS.IN_USE and not allow_in_use:
        raise exception.InvalidVolume(
            reason='volume %s is attached (in-use): a snapshot of it needs '
                   '"force": true below microversion 3.66' % volume_id)
    if volume.status not in statuses:
        raise exception.InvalidVolumeStatus(
            volume_id=volume_id, status=volume.status,
            expected=', '.join(statuses))
    rpcapi.get().check_snapshot_calls('taking a snapshot')
    services.assert_not_frozen(context, volume.host, 'volume %s' % volume.id)
    values = {
        'id': uuidutils.generate_uuid(),
        'volume_id': volume.id,
        'project_id': volume.project_id, 'user_id': context.user_id,
        'name': name, 'description': description,
        'status': S.CREATING, 'progress': '0%',
        'volume_size': volume.size, 'use_quota': True,
    }
    limits = quota.get_limits(context, volume.project_id)
    snapshot = _insert_counted(context, volume, values, metadata or {},
                               limits, statuses)
    try:
        rpcapi.get().create_snapshot(context, volume, snapshot)
    except Exception:
        LOG.exception('Could not cast create of snapshot %s', snapshot.id)
        snapshot_state.fail_create(context, snapshot)
        snapshot.status, snapshot.use_quota = S.ERROR, False
    return snapshot


def update(context, snapshot_id, values):
    return db_snapshots.update(context, snapshot_id, values,
                               context.project_scope)


@session.VOLUME.writer
def _claim_delete(context, snapshot_id, expected):
    """``deleting``, unless a volume is being made of it (read after the
    claim holds its row) or it is part of a group snapshot: one
    transaction."""
    snapshot = db_snapshots.transition_in_transaction(
        context, snapshot_id, {'status': S.DELETING}, expected,
        context.project_scope)
    if snapshot.group_snapshot_id:
        # As Cinder, even with force: it goes with its group snapshot.
        raise group_exception.SnapshotInGroupSnapshot(
            snapshot_id=snapshot_id,
            group_snapshot_id=snapshot.group_snapshot_id)
    volume_sources.check_no_volume_made_of_snapshot(context, snapshot_id)
    return snapshot


def delete(context, snapshot_id, force=False):
    """``deleting`` (from available or error; with ``force``, an
    administrator's os-force_delete, from any status), then the backend
    removes it."""
    rpcapi.get().check_snapshot_calls('deleting a snapshot')
    snapshot = get(context, snapshot_id)
    volume = db_volumes.get(context, snapshot.volume_id)
    services.assert_not_frozen(context, volume.host,
                               'snapshot %s' % snapshot_id)
    snapshot = _claim_delete(context, snapshot_id,
                             S.ALL if force else S.DELETABLE)
    rpcapi.get().delete_snapshot(context, volume, snapshot)


# os-update_snapshot_status: the statuses each may be reported from (what
# the compute service reports of a snapshot it takes or deletes).
_UPDATES_FROM = {
    S.CREATING: (S.CREATING,),
    S.AVAILABLE: (S.CREATING,),
    S.ERROR: (S.CREATING,),
    S.DELETING: (S.DELETING,),
    S.ERROR_DELETING: (S.DELETING,),
}


def update_status(context, snapshot_id, status, progress=None):
    """os-update_snapshot_status: ``status`` (and ``progress``) of a
    snapshot being taken or deleted, from the statuses Cinder allows; a
    create reported failed gives its quota back."""
    expected = _UPDATES_FROM.get(status)
    if expected is None:
        raise exception.InvalidInput(
            reason='status %s cannot be reported; a snapshot being taken '
                   'may be reported creating, available or error, one '
                   'being deleted deleting or error_deleting' % status)
    values = {'status': status}
    if progress is not None:
        values['progress'] = progress
    snapshot_state.update_status(context, snapshot_id, values, expected,
                                 context.project_scope)


def reset_status(context, snapshot_id, status):
    db_snapshots.update(context, snapshot_id, {'status': status})


def update_metadata(context, snapshot_id, metadata, delete_others=False):
    return db_snapshots.metadata_update(context, snapshot_id, metadata,
                                        delete_others,
                                        context.project_scope)


def delete_metadata(context, snapshot_id, key):
    db_snapshots.metadata_delete(context, snapshot_id, key,
                                 context.project_scope)
