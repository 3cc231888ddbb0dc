"""Volumes (``/volumes``) in the API process: reads, create, update,
delete.

Every state change claims the volume with one conditional UPDATE before any
work is cast to a manager; quota is counted in the same transaction.
"""

from oslo_config import cfg
from oslo_db import exception as db_exc
from oslo_log import log as logging
from oslo_utils import uuidutils

from tether.db import session
from tether.db.volume import attachment as db_attachments
from tether.db.volume import group as db_groups
from tether.db.volume import quota as db_quotas
from tether.db.volume import snapshot as db_snapshots
from tether.db.volume import volume as db_volumes
from tether.db.volume import volume_type as db_types
from tether import images
from tether.objects import fields
from tether.volume.api import default_types
from tether.volume.api import services
from tether.volume.api import types as volume_types
from tether.volume.api import volume_metadata
from tether.volume.api import volume_sources
from tether.volume import exception
from tether.volume import group_exception
from tether.volume import messages
from tether.volume import quota
from tether.volume import rpcapi
from tether.volume import scheduler
from tether.volume import volume_image
from tether.volume import volume_state

CONF = cfg.CONF
LOG = logging.getLogger(__name__)
S = fields.VolumeStatus
SS = fields.SnapshotStatus
SORT_KEYS = db_volumes.SORT_KEYS


def get(context, volume_id):
    return db_volumes.get(context, volume_id, context.project_scope)


def get_any(context, volume_id):
    """A volume of any project (the completion of an extend, which the
    compute service sends for the volumes of every project)."""
    return db_volumes.get(context, volume_id)


def get_all(context, all_tenants=False, project_id=None, filters=None,
            marker=None, limit=None, sort_keys=None, sort_dirs=None,
            offset=None):
    return db_volumes.get_all(
        context, context.list_scope(all_tenants, project_id),
        filters=filters, marker=marker, limit=limit,
        sort_keys=sort_keys or ('created_at', 'id'),
        sort_dirs=sort_dirs or ('desc', 'desc'), offset=offset)


def count(context, all_tenants=False, project_id=None, filters=None):
    return db_volumes.count(context, context.list_scope(all_tenants,
                                                        project_id), filters)


def summary(context, all_tenants=False):
    """(count, total GiB, {metadata key: [values]}) of visible volumes."""
    return db_volumes.summary(context, context.list_scope(all_tenants))


@db_quotas.retry_on_duplicate
@session.VOLUME.writer
def _insert_counted(context, values, metadata, limits, type_name,
                    image_metadata, source=None):
    """Count the volume against the quota and insert it (its ``source``
    held, still available; its group held, still available): one
    transaction.

    A volume no backend took (``use_quota`` false, in error) holds no
    quota, yet a request over quota is refused as over quota all the
    same: its quota is counted, then given back.
    """
    if values.get('group_id'):
        db_groups.transition_in_transaction(
            context, values['group_id'], {}, [fields.GroupStatus.AVAILABLE])
    if source is not None:
        volume_sources.hold_in_transaction(context, source)
    deltas = quota.with_type({'volumes': 1, 'gigabytes': values['size']},
                             type_name)
    db_quotas.consume_in_transaction(context, values['project_id'], deltas,
                                     limits)
    if not values['use_quota']:
        db_quotas.release_in_transaction(context, values['project_id'],
                                         deltas)
    try:
        return db_volumes.create(context, values, metadata,
                                 volume_type_name=type_name,
                                 image_metadata=image_metadata)
    except db_exc.DBReferenceError:
        # The type was deleted since it was read (the foreign key says so).
        raise exception.VolumeTypeNotFound(
            volume_type_id=values['volume_type_id'])


def _image(context, image_ref, size):
    """The image ``image_ref`` names (an id, a URL or a unique name),
    checked against a volume of ``size`` GiB, with the caller's token."""
    try:
        image = images.for_caller(context).find(image_ref)
    except (exception.ImageNotFound, exception.ImageNotAuthorized):
        raise exception.InvalidImageRef(image_ref=image_ref)
    volume_image.check_fits(image, size)
    return image


def _check_source_size(source, size):
    if size < source.size:
        raise exception.InvalidInput(
            reason='a volume of %sG cannot hold %s, of %sG; ask for %sG or '
                   'more' % (size, source.what, source.size, source.size))


def _group(context, group_id, vtype, availability_zone, source):
    """The group a new volume is made in: the caller's, taking its
    type, in its zone, and (a volume made of a source) on its backend."""
    group = db_groups.get(context, group_id, context.project_scope)
    if vtype.id not in group.volume_type_ids:
        raise exception.InvalidInput(
            reason='Invalid volume_type provided: %s (requested type must '
                   'be supported by this group).' % vtype.name)
    if availability_zone not in (None, group.availability_zone):
        raise exception.InvalidInput(
            reason='group %s is in availability zone %s, not %s'
            % (group.id, group.availability_zone, availability_zone))
    if source is not None and \
            source.volume.backend_host != group.backend_host:
        raise exception.InvalidInput(
            reason='%s is on backend %s, group %s on %s' % (
                source.what, source.volume.backend_host, group.id,
                group.backend_host))
    if group.status != fields.GroupStatus.AVAILABLE:
        raise group_exception.InvalidGroupStatus(
            group_id=group.id, status=group.status,
            expected=fields.GroupStatus.AVAILABLE)
    return group


def create(context, size, name=None, description=None, metadata=None,
           volume_type=None, availability_zone=None, image_ref=None,
           snapshot_id=None, source_volid=None, volume_id=None,
           group_id=None):
    """A new volume: empty, or made of an image (``image_ref``), of a
    snapshot (``snapshot_id``) or of another volume (``source_volid``),
    which it takes its size (if ``size`` is None), type, zone, bootable
    flag and image metadata from (and its backend: the backend copies
    the source's files). ``volume_id``: its id, if the caller chose it
    (a restore claimed its backup for it first). ``group_id``: the
    generic volume group it is made in, on the group's backend."""
    volume_metadata.check_keys(metadata or {})
    image = image_metadata = source = None
    bootable = False
    if snapshot_id is not None or source_volid is not None:
        rpcapi.get().check_snapshot_calls(
            'creating a volume from a snapshot or a volume')
        source = volume_sources.find(context, snapshot_id, source_volid)
        size = source.size if size is None else size
        _check_source_size(source, size)
        if availability_zone not in (None,
                                     source.volume.availability_zone):
            raise exception.InvalidInput(
                reason='%s is in availability zone %s, not %s' % (
                    source.what, source.volume.availability_zone,
                    availability_zone))
        availability_zone = source.volume.availability_zone
        volume_type = volume_type or source.volume.volume_type_id
        image_metadata = dict(source.volume.image_metadata) or None
        bootable = source.volume.bootable
    if image_ref is not None:
        rpcapi.get().check_image_calls('creating a volume from an image')
        image = _image(context, image_ref, size)
        image_metadata = volume_image.metadata(image)
    az = availability_zone or CONF.storage_availability_zone
    with session.VOLUME.reading(context):
        if availability_zone is not None and availability_zone not in {
                zone for zone, _up in services.availability_zones(context)}:
            # Known zones whose services are down are taken (the volume
            # goes to error if none comes back), as Cinder takes them.
            raise exception.InvalidAvailabilityZone(az=availability_zone)
        # Without a type: the project's default, which an administrator
        # chose for it (private or not), else the configured one.
        project_default = (None if volume_type is not None else
                           default_types.type_for(context,
                                                  context.project_id))
        vtype = db_types.get_by_name_or_id(
            context,
            volume_type or project_default or CONF.default_volume_type)
        if project_default is None and not volume_types.visible(context,
                                                                vtype):
            raise exception.VolumeTypeNotFound(volume_type_id=volume_type)
        group = None
        if group_id is not None:
            group = _group(context, group_id, vtype, availability_zone,
                           source)
            az = group.availability_zone
        limits = quota.check_per_volume_size(context, context.project_id,
                                             size)
        host = (source.volume.host if source is not None
                else group.host if group is not None
                else scheduler.choose_backend(context, size, az,
                                              vtype.extra_specs))
    values = {
        'id': volume_id or uuidutils.generate_uuid(),
        'project_id': context.project_id, 'user_id': context.user_id,
        'name': name, 'description': description, 'size': size,
        'availability_zone': az, 'host': host,
        'status': S.CREATING if host else S.ERROR,
        'attach_status': fields.VolumeAttachStatus.DETACHED,
        'volume_type_id': vtype.id, 'bootable': bootable,
        'multiattach': vtype.multiattach, 'use_quota': host is not None,
        'group_id': group_id,
    }
    if source is not None:
        values.update(source.values())
    volume = _insert_counted(context, values, metadata or {}, limits,
                             vtype.name, image_metadata, source)
    if host is None:
        LOG.warning('No volume backend in zone %s has room for %sG and the '
                    'capabilities of type %s; volume %s is in error.', az,
                    size, vtype.name, volume.id)
        messages.record(context, messages.Action.SCHEDULE_ALLOCATE_VOLUME,
                        volume.id, volume.project_id,
                        detail=messages.Detail.NO_BACKEND_AVAILABLE)
        return volume
    try:
        rpcapi.get().create_volume(context, volume, image=image)
    except Exception:
        LOG.exception('Could not cast create of volume %s', volume.id)
        volume_state.fail_create(context, volume, [S.CREATING])
        volume.status, volume.use_quota = S.ERROR, False
    return volume


def update(context, volume_id, values):
    return db_volumes.update(context, volume_id, values,
                             context.project_scope)


@session.VOLUME.writer
def _claim_delete(context, volume_id, cascade, statuses):
    """``deleting`` from one of ``statuses``, in one transaction: the
    volume without attachments
    and, unless ``cascade``, without snapshots (read after the volume's
    row is held: a snapshot create that came first is seen, one that
    comes after finds the volume ``deleting``); with ``cascade`` its
    snapshots go ``deleting`` with it."""
    volume = db_attachments.transition_without_attachments(
        context, volume_id, {'status': S.DELETING},
        statuses, context.project_scope)
    if volume.group_id:
        raise group_exception.VolumeInGroup(volume_id=volume_id,
                                            group_id=volume.group_id)
    volume_sources.check_no_volume_made_of_volume(context, volume_id)
    snapshots = db_snapshots.of_volume_in_transaction(context, volume_id)
    if snapshots and not cascade:
        raise exception.VolumeHasSnapshots(volume_id=volume_id,
                                           count=len(snapshots))
    for snapshot in snapshots:
        if snapshot.group_snapshot_id:
            raise group_exception.SnapshotInGroupSnapshot(
                snapshot_id=snapshot.id,
                group_snapshot_id=snapshot.group_snapshot_id)
    others = [s for s in snapshots if s.project_id != volume.project_id]
    if others and not context.is_admin:
        # As Cinder: snapshots left in another project by a transfer
        # without them are that project's to delete.
        raise exception.InvalidVolume(
            reason='volume %s has snapshot %s of project %s (a transfer '
                   'left it there); that project deletes it first'
                   % (volume_id, others[0].id, others[0].project_id))
    for snapshot in snapshots:
        db_snapshots.transition_in_transaction(
            context, snapshot.id, {'status': SS.DELETING},
            SS.DELETABLE + (SS.DELETING,))
    return volume


def delete(context, volume_id, cascade=False, force=False):
    """Delete the volume; ``force`` (an administrator's) from any of
    fields.FORCE_DELETABLE_STATUSES, not only the resting ones. Attached,
    with snapshots (without ``cascade``), in a group: refused either way,
    as Cinder refuses them."""
    services.assert_not_frozen(context, get(context, volume_id).host,
                               'volume %s' % volume_id)
    volume = _claim_delete(context, volume_id, cascade,
                           fields.FORCE_DELETABLE_STATUSES if force
                           else fields.DELETABLE_STATUSES)
    if not volume.host:
        # Never reached a backend: nothing on disk to remove.
        volume_state.finish_delete(context, volume)
        return
    rpcapi.get().delete_volume(context, volume)
