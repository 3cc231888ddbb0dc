"""A group made of a source (``/groups/action`` create-from-src, 3.14):
of a group snapshot (a volume of each of its snapshots) or of another
group (a clone of each of its volumes), in the API process.

One transaction holds the source (``available``), counts the quota
(``groups``, and ``volumes`` and ``gigabytes`` of every new volume, per
volume type too), and inserts the group (``creating``, on the source's
backend) and its volumes, each holding its own source as any volume
made of a snapshot or a volume does. The backend then makes each volume;
the last one made makes the group ``available``
(tether.volume.group_state.settle_create).
"""

from oslo_log import log as logging
from oslo_utils import uuidutils

from tether.db import session
from tether.db.volume import group as db_groups
from tether.db.volume import group_snapshot as db_group_snapshots
from tether.db.volume import quota as db_quotas
from tether.db.volume import volume as db_volumes
from tether.objects import fields
from tether.volume.api import groups
from tether.volume.api import volume_sources
from tether.volume import group_exception
from tether.volume import group_state
from tether.volume import quota
from tether.volume import rpcapi
from tether.volume import volume_state

LOG = logging.getLogger(__name__)
G = fields.GroupStatus
GS = fields.GroupSnapshotStatus
VS = fields.VolumeStatus


def _sources(context, group_snapshot_id, source_group_id):
    """(the source group, [volume_sources.Source]) of a create."""
    if group_snapshot_id is not None:
        group_snapshot = db_group_snapshots.get(context, group_snapshot_id,
                                                context.project_scope)
        if group_snapshot.status != GS.AVAILABLE:
            raise group_exception.InvalidGroupSnapshotStatus(
                group_snapshot_id=group_snapshot_id,
                status=group_snapshot.status, expected=GS.AVAILABLE)
        source_group = db_groups.get(context, group_snapshot.group_id)
        snapshots = db_group_snapshots.snapshots(context, group_snapshot_id)
        if not snapshots:
            raise group_exception.InvalidGroup(
                reason='Group snapshot is empty. No group will be created.')
        return source_group, [volume_sources.Source(
            db_volumes.get(context, s.volume_id), s) for s in snapshots]
    source_group = groups.get(context, source_group_id)
    if source_group.status != G.AVAILABLE:
        raise group_exception.InvalidGroupStatus(
            group_id=source_group_id, status=source_group.status,
            expected=G.AVAILABLE)
    volumes = db_groups.volumes(context, source_group_id)
    if not volumes:
        raise group_exception.InvalidGroup(
            reason='Source Group is empty. No group will be created.')
    return source_group, [volume_sources.Source(v) for v in volumes]


def _volume_values(context, group, source):
    volume = source.volume
    return dict({
        'id': uuidutils.generate_uuid(), 'project_id': context.project_id,
        'user_id': context.user_id, 'name': None, 'description': None,
        'size': source.size, 'availability_zone': volume.availability_zone,
        'host': volume.host, 'status': VS.CREATING,
        'attach_status': fields.VolumeAttachStatus.DETACHED,
        'volume_type_id': volume.volume_type_id,
        'bootable': volume.bootable, 'multiattach': volume.multiattach,
        'use_quota': True, 'group_id': group.id}, **source.values())


def _quota(sources):
    deltas = {'groups': 1}
    for source in sources:
        for resource, delta in quota.with_type(
                {'volumes': 1, 'gigabytes': source.size},
                source.volume.volume_type_name).items():
            deltas[resource] = deltas.get(resource, 0) + delta
    return deltas


@db_quotas.retry_on_duplicate
@session.VOLUME.writer
def _insert_counted(context, values, volume_type_ids, sources,
                    group_snapshot_id, source_group_id, limits):
    if group_snapshot_id is not None:
        db_group_snapshots.transition_in_transaction(
            context, group_snapshot_id, {}, [GS.AVAILABLE])
    else:
        db_groups.transition_in_transaction(context, source_group_id, {},
                                            [G.AVAILABLE])
    db_quotas.consume_in_transaction(context, values['project_id'],
                                     _quota(sources), limits)
    group = db_groups.create_in_transaction(context, values,
                                            volume_type_ids)
    volumes = []
    for source in sources:
        volume_sources.hold_in_transaction(context, source)
        volumes.append(db_volumes.create(
            context, _volume_values(context, group, source), {},
            volume_type_name=source.volume.volume_type_name,
            image_metadata=dict(source.volume.image_metadata) or None))
    return group, volumes


def create_from_src(context, name=None, description=None,
                    group_snapshot_id=None, source_group_id=None):
    """A new group of the source's type, volume types and backend, with
    a volume made of each snapshot of ``group_snapshot_id`` or of each
    volume of ``source_group_id``."""
    rpcapi.get().check_snapshot_calls('creating a group from a source')
    source_group, sources = _sources(context, group_snapshot_id,
                                     source_group_id)
    limits = quota.get_limits(context, context.project_id)
    values = groups.new_values(
        context, name, None if description is None else description,
        source_group.group_type_id, source_group.availability_zone,
        source_group.host, G.CREATING, group_snapshot_id=group_snapshot_id,
        source_group_id=source_group_id)
    group, volumes = _insert_counted(
        context, values, list(source_group.volume_type_ids), sources,
        group_snapshot_id, source_group_id, limits)
    for volume in volumes:
        try:
            rpcapi.get().create_volume(context, volume)
        except Exception:
            LOG.exception('Could not cast create of volume %s of group %s',
                          volume.id, group.id)
            volume_state.fail_create(context, volume, [VS.CREATING])
    group_state.settle_create(context, group.id)
    return group
