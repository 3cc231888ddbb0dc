"""Group snapshots (``/group_snapshots``, 3.14) in the API process:
reads, create, delete and the administrators' reset_status.

A create holds the group ``available`` and each of its volumes
(``available`` or ``in-use``), counts a snapshot of each against the
quota (``snapshots``, ``gigabytes``, per volume type too) and inserts
the group snapshot and the snapshots (``creating``): one transaction,
so a group delete, a change of members or a volume delete either comes
first (and the create is refused) or sees the group snapshot. The
group's backend takes the snapshots together
(tether.volume.ops.group_snapshots).
"""

from oslo_log import log as logging
from oslo_utils import uuidutils

from tether.db import base
from tether.db import session
from tether.db.volume import group as db_groups
from tether.db.volume import group_snapshot as db_group_snapshots
from tether.db.volume import quota as db_quotas
from tether.db.volume import snapshot as db_snapshots
from tether.db.volume import volume as db_volumes
from tether.objects import fields
from tether.volume.api import groups
from tether.volume.api import volume_sources
from tether.volume import exception
from tether.volume import group_exception
from tether.volume import quota
from tether.volume import rpcapi
from tether.volume import snapshot_state

LOG = logging.getLogger(__name__)
G = fields.GroupStatus
GS = fields.GroupSnapshotStatus
S = fields.SnapshotStatus
VS = fields.VolumeStatus
SORT_KEYS = db_group_snapshots.SORT_KEYS
# The statuses of a volume that may be snapshotted in its group.
_SNAPSHOTTABLE = (VS.AVAILABLE, VS.IN_USE)


def get(context, group_snapshot_id):
    return db_group_snapshots.get(context, group_snapshot_id,
                                  context.project_scope)


def get_all(context, all_tenants=False, project_id=None, filters=None,
            marker=None, limit=None, sort_keys=None, sort_dirs=None,
            offset=None):
    return db_group_snapshots.get_all(
        context, context.list_scope(all_tenants, project_id),
        filters=filters, marker=marker, limit=limit,
        sort_keys=sort_keys or ('created_at', 'id'),
        sort_dirs=sort_dirs or ('desc', 'desc'), offset=offset)


def count(context, all_tenants=False, project_id=None, filters=None):
    return db_group_snapshots.count(
        context, context.list_scope(all_tenants, project_id), filters)


def _hold_volume(context, volume):
    if not db_volumes.conditional_update(
            context, volume.id, {'updated_at': base.now()}, _SNAPSHOTTABLE):
        current = db_volumes.get(context, volume.id)
        raise exception.InvalidVolumeStatus(
            volume_id=volume.id, status=current.status,
            expected=' or '.join(_SNAPSHOTTABLE))


def _snapshot_values(context, group_snapshot, volume):
    return {
        'id': uuidutils.generate_uuid(), 'volume_id': volume.id,
        'project_id': volume.project_id, 'user_id': context.user_id,
        'name': group_snapshot['name'],
        'description': group_snapshot['description'],
        'status': S.CREATING, 'progress': '0%', 'volume_size': volume.size,
        'use_quota': True, 'group_snapshot_id': group_snapshot['id'],
    }


@db_quotas.retry_on_duplicate
@session.VOLUME.writer
def _insert_counted(context, group_id, values, limits):
    group = db_groups.transition_in_transaction(
        context, group_id, {}, [G.AVAILABLE], context.project_scope)
    volumes = db_groups.volumes_in_transaction(context, group_id)
    snapshots = []
    deltas = {}
    for volume in volumes:
        _hold_volume(context, volume)
        snapshot = _snapshot_values(context, values, volume)
        snapshots.append(snapshot)
        for resource, delta in snapshot_state.quota_of(
                context, snapshot).items():
            deltas[resource] = deltas.get(resource, 0) + delta
    db_quotas.consume_in_transaction(context, group.project_id, deltas,
                                     limits)
    if not volumes:
        values = dict(values, status=GS.AVAILABLE)
    group_snapshot = db_group_snapshots.create_in_transaction(
        context, dict(values, group_type_id=group.group_type_id))
    for snapshot in snapshots:
        db_snapshots.create_in_transaction(context, snapshot)
    return group, group_snapshot


def create(context, group_id, name=None, description=None):
    """Snapshots of every volume of an ``available`` group, taken
    together by its backend (a group without volumes has an empty
    group snapshot, ``available`` at once)."""
    group = groups.get(context, group_id)
    rpcapi.get().check_group_snapshot_calls('taking a group snapshot')
    values = {'id': uuidutils.generate_uuid(), 'group_id': group.id,
              'project_id': group.project_id, 'user_id': context.user_id,
              'name': name, 'description': description,
              'status': GS.CREATING}
    limits = quota.get_limits(context, group.project_id)
    group, group_snapshot = _insert_counted(context, group_id, values,
                                            limits)
    if group_snapshot.status != GS.CREATING:
        return group_snapshot
    try:
        rpcapi.get().create_group_snapshot(context, group,
                                           group_snapshot.id)
    except Exception:
        LOG.exception('Could not cast create of group snapshot %s',
                      group_snapshot.id)
        for snapshot in db_group_snapshots.snapshots(context,
                                                     group_snapshot.id):
            snapshot_state.fail_create(context, snapshot)
        db_group_snapshots.conditional_update(
            context, group_snapshot.id, {'status': GS.ERROR},
            [GS.CREATING])
        group_snapshot = get(context, group_snapshot.id)
    return group_snapshot


@session.VOLUME.writer
def _claim_delete(context, group_snapshot_id):
    """``deleting``, with each of its snapshots, unless a group or a
    volume is being made of it (read after the claim holds its row):
    one transaction. A group snapshot without snapshots goes at once."""
    group_snapshot = db_group_snapshots.transition_in_transaction(
        context, group_snapshot_id, {'status': GS.DELETING},
        GS.DELETABLE, context.project_scope)
    copy = db_groups.made_of_in_transaction(
        context, [G.CREATING], group_snapshot_id=group_snapshot_id)
    if copy:
        raise group_exception.InvalidGroupSnapshot(
            reason='group %s is being made of group snapshot %s; it cannot '
                   'be deleted until that is done'
                   % (copy, group_snapshot_id))
    snapshots = db_group_snapshots.snapshots_in_transaction(
        context, group_snapshot_id)
    for snapshot in snapshots:
        db_snapshots.transition_in_transaction(
            context, snapshot.id, {'status': S.DELETING},
            S.DELETABLE + (S.DELETING,))
        volume_sources.check_no_volume_made_of_snapshot(context,
                                                        snapshot.id)
    if not snapshots:
        db_group_snapshots.destroy_in_transaction(
            context, group_snapshot_id, [GS.DELETING])
    return group_snapshot, snapshots


def delete(context, group_snapshot_id):
    """Delete a group snapshot (``available`` or ``error``) and every
    snapshot taken in it."""
    get(context, group_snapshot_id)
    rpcapi.get().check_group_snapshot_calls('deleting a group snapshot')
    group_snapshot, snapshots = _claim_delete(context, group_snapshot_id)
    if snapshots:
        group = db_groups.get(context, group_snapshot.group_id)
        rpcapi.get().delete_group_snapshot(context, group,
                                           group_snapshot_id)


def reset_status(context, group_snapshot_id, status):
    """An administrator's reset_status: any status."""
    get(context, group_snapshot_id)
    db_group_snapshots.update(context, group_snapshot_id,
                              {'status': status})
