"""Snapshots of servers into images, in the API process: the server
actions createImage and createBackup, as Nova takes them.

A server with a local root disk is snapshotted by its host: the API
claims its task (``image_snapshot_pending`` or ``image_backup``), makes
the image record (``queued``, with the caller's token: the image is the
caller's) and casts; tether.compute.ops.server_images takes the disk's
data and uploads it.

A volume-backed server is snapshotted here, as Nova does it: a snapshot
of each of its volumes (``force``: the compute host snapshots an attached
volume for the volume service), then an image with no data whose
properties map those snapshots (``block_device_mapping``, ``bdm_v2``), so
that a server booted from the image has volumes made of them
(tether.compute.api.image_mappings). Nothing of the server changes, so no
task is claimed: the volume service's assisted snapshots need the server
without one.
"""

import contextlib
import json

from oslo_log import log as logging

from tether.compute.api import server_metadata
from tether.compute.api import servers
from tether.compute import exception
from tether.compute import image_exception
from tether.compute import rpcapi as compute_rpcapi
from tether.compute import version as compute_version
from tether.compute import volume_client
from tether.db.compute import block_device_mapping as db_bdms
from tether.db.compute import instance as db_instances
from tether.db.compute import instance_action as db_actions
from tether import images
from tether.objects import fields

LOG = logging.getLogger(__name__)

VmState = fields.VmState
TaskState = fields.TaskState
Action = fields.InstanceAction

# The states a server is snapshotted from (Nova's).
SNAPSHOTTABLE = (VmState.ACTIVE, VmState.STOPPED, VmState.PAUSED,
                 VmState.SUSPENDED)
# A volume-backed server's volumes are snapshotted by its host while its
# guest runs, is paused or is off; a suspended guest's saved memory
# would not follow a switch of its disks (see assisted_volume_snapshots).
VOLUME_SNAPSHOTTABLE = (VmState.ACTIVE, VmState.STOPPED, VmState.PAUSED)

# The image API's own attributes: never properties a new image inherits.
_IMAGE_ATTRIBUTES = frozenset((
    'id', 'name', 'status', 'visibility', 'protected', 'os_hidden',
    'checksum', 'os_hash_algo', 'os_hash_value', 'owner', 'size',
    'virtual_size', 'min_ram', 'min_disk', 'disk_format',
    'container_format', 'created_at', 'updated_at', 'tags', 'self', 'file',
    'schema', 'locations', 'direct_url', 'stores'))
# What a volume's volume_image_metadata has besides the image's
# properties (the volume service's record of the image it was made of).
_VOLUME_IMAGE_KEYS = frozenset(('image_id', 'image_name'))
# Properties a snapshot never inherits (Nova's non-inheritable ones, and
# those of its snapshots that tether sets itself).
_NOT_INHERITED = frozenset((
    'img_signature', 'img_signature_hash_method', 'img_signature_key_type',
    'img_signature_certificate_uuid', 'cinder_encryption_key_id',
    'cinder_encryption_key_deletion_policy', 'cache_in_nova', 'bittorrent',
    'block_device_mapping', 'bdm_v2', 'root_device_name', 'image_type',
    'instance_uuid', 'user_id', 'base_image_ref', 'backup_type',
    'instance_owner', 'image_location', 'image_state', 'owner_id',
    'signature_verified'))
_NOT_INHERITED_PREFIXES = ('os_glance',)


def _inherited(source):
    """The properties a snapshot takes of the image its server was made
    of (``source``: the image, or a volume's ``volume_image_metadata``),
    and that image's min_ram and min_disk."""
    props = {k: v for k, v in source.items()
             if k not in _IMAGE_ATTRIBUTES and k not in _VOLUME_IMAGE_KEYS
             and k not in _NOT_INHERITED
             and not k.startswith(_NOT_INHERITED_PREFIXES)
             and isinstance(v, str)}
    sizes = {k: int(source.get(k) or 0) for k in ('min_ram', 'min_disk')}
    return props, sizes


def _image_values(context, instance, name, inherited, properties,
                  disk_format):
    """The new image's record: private to the caller's project, or, made
    by someone of another project (an admin), ``shared`` and marked with
    the server's project (Nova's ``instance_owner``)."""
    props, sizes = inherited
    props = dict(props)
    visibility = 'private'
    if context.project_id != instance.project_id:
        visibility = 'shared'
        props['instance_owner'] = instance.project_id
    props.update(properties)
    return dict(props, name=name, visibility=visibility,
                disk_format=disk_format, container_format='bare', **sizes)


# createImage ---------------------------------------------------------------

def create_image(context, instance, name, metadata, check_quota=True,
                 authorize_volume_backed=None):
    """Snapshot the server into a new image named ``name`` with the
    properties ``metadata``; the image (a dict of the image API's).
    ``check_quota``: the metadata is held to the ``metadata_items`` quota
    (below 2.39; 403). ``authorize_volume_backed()`` checks the policy of
    snapshots of volume-backed servers, called for those only."""
    metadata = metadata or {}
    if check_quota:
        server_metadata.check_quota(context, metadata)
    if not instance.is_image_backed:
        if authorize_volume_backed is not None:
            authorize_volume_backed()
        return _snapshot_volume_backed(context, instance, name, metadata)
    return _snapshot_on_host(
        context, instance, name, Action.CREATE_IMAGE,
        TaskState.IMAGE_SNAPSHOT_PENDING,
        dict(metadata, image_type='snapshot'))


def create_backup(context, instance, name, backup_type, rotation,
                  metadata):
    """Back the server up into a new image and keep the newest
    ``rotation`` backups of ``backup_type`` (the host deletes the older
    ones after the upload); the new image. A volume-backed server is not
    backed up (Nova's 400)."""
    if not instance.is_image_backed:
        raise exception.InvalidInput(
            reason='Backup is not supported for volume-backed instances.')
    properties = dict(metadata or {}, image_type='backup',
                      backup_type=backup_type)
    return _snapshot_on_host(context, instance, name, Action.BACKUP,
                             TaskState.IMAGE_BACKUP, properties,
                             rotation=rotation)


# A server with a local root disk -------------------------------------------

def _base_image(context, instance):
    """The image the server was made of, if the caller still sees it."""
    try:
        return images.for_caller(context).get(instance.image_ref)
    except (exception.ImageNotFound, exception.ImageNotAuthorized):
        LOG.info('Image %s of server %s is gone: its snapshot inherits '
                 'nothing of it', instance.image_ref, instance.uuid)
        return {}


def _snapshot_on_host(context, instance, name, action, task_state,
                      properties, rotation=None):
    servers.check_state(instance, action, SNAPSHOTTABLE)
    servers.check_host_version(
        context, instance, compute_version.SNAPSHOT_BUILD_SERVICE_VERSION,
        action)
    compute_rpcapi.get().check_snapshot_calls()
    base = _base_image(context, instance)
    properties = dict(properties, instance_uuid=instance.uuid,
                      user_id=context.user_id,
                      base_image_ref=instance.image_ref)
    # The host uploads the disk as qcow2 (its overlay and the image
    # below it, as one file).
    values = _image_values(context, instance, name, _inherited(base),
                           properties, 'qcow2')
    instance = db_instances.update(
        context, instance.uuid, {'task_state': task_state},
        expected_vm_state=SNAPSHOTTABLE, expected_task_state=None,
        action=action)
    client = images.for_caller(context)
    try:
        image = client.create(values)
    except Exception:
        # Nothing was cast: the server is left as it was found.
        db_instances.update(context, instance.uuid, {'task_state': None},
                            expected_task_state=task_state, action=action)
        raise
    db_actions.action_start(context, instance.uuid, action)
    LOG.info('Snapshotting server %s into image %s (%s)', instance.uuid,
             image['id'], action)
    compute_rpcapi.get().snapshot_instance(context, instance, image['id'],
                                           rotation=rotation)
    return image


# A volume-backed server ----------------------------------------------------

def _check_snapshot_quota(client, count):
    """Enough of the project's snapshot quota for ``count`` more (Nova's
    check before the first snapshot: no image is left half made for a
    quota it could have seen)."""
    absolute = client.limits()['absolute']
    most = absolute.get('maxTotalSnapshots', -1)
    used = absolute.get('totalSnapshotsUsed', 0)
    if most >= 0 and used + count > most:
        raise image_exception.SnapshotQuotaExceeded(
            count=count, used=used, limit=most)


def _image_mapping(bdm, snapshot_id):
    """A block device mapping of the image, as Nova writes it: the
    volume made of ``snapshot_id`` where the server had ``bdm``."""
    return {'source_type': fields.BdmSourceType.SNAPSHOT,
            'destination_type': fields.BdmDestinationType.VOLUME,
            'snapshot_id': snapshot_id, 'volume_id': None,
            'image_id': None, 'volume_size': bdm.volume_size,
            'boot_index': bdm.boot_index, 'device_name': bdm.device_name,
            'delete_on_termination': bdm.delete_on_termination,
            'tag': bdm.tag, 'disk_bus': None, 'device_type': 'disk',
            'guest_format': None, 'no_device': None, 'volume_type': None}


def _snapshot_volumes(client, instance, bdms, name, made):
    """A snapshot of each volume of the server, in boot order (each id
    appended to ``made`` as soon as the volume API took it); their image
    mappings."""
    mappings = []
    for bdm in bdms:
        volume = client.get_volume(bdm.volume_id)
        snapshot = client.create_snapshot(
            bdm.volume_id, name='snapshot for %s' % name,
            description=volume.get('description'), force=True)
        made.append(snapshot['id'])
        mappings.append(_image_mapping(bdm, snapshot['id']))
    return mappings


def _snapshot_volume_backed(context, instance, name, metadata):
    servers.check_state(instance, Action.CREATE_IMAGE, VOLUME_SNAPSHOTTABLE)
    bdms = [b for b in db_bdms.get_by_instance(context, instance.uuid)
            if b.volume_id]
    root = next((b for b in bdms if b.boot_index == 0), None)
    client = volume_client.for_user(context)
    source = {}
    if root is not None:
        source = client.get_volume(root.volume_id).get(
            'volume_image_metadata') or {}
    if str(source.get('os_require_quiesce', '')).lower() in (
            'yes', 'true', '1', 'on'):
        raise image_exception.QuiesceNotSupported(instance_id=instance.uuid)
    _check_snapshot_quota(client, len(bdms))
    db_actions.action_start(context, instance.uuid, Action.CREATE_IMAGE)
    made = []
    with _api_event(context, instance, 'api_snapshot_instance'):
        try:
            mappings = _snapshot_volumes(client, instance, bdms, name, made)
            properties = dict(metadata)
            if mappings:
                properties['block_device_mapping'] = json.dumps(mappings)
                properties['bdm_v2'] = 'True'
                properties['root_device_name'] = (
                    root.device_name if root is not None and
                    root.device_name else '/dev/sda')
            # An image of no data is raw: the image API inspects what
            # it is given, and no data is no qcow2 (Nova's too).
            values = _image_values(context, instance, name,
                                   _inherited(source), properties, 'raw')
            image_client = images.for_caller(context)
            image = image_client.create(values)
            # An image of properties only: active, with no data (Nova's).
            image_client.upload_data(image['id'], b'')
        except Exception:
            # As in Nova, the snapshots already taken stay (a snapshot
            # being taken cannot be deleted yet): the log names them.
            LOG.warning('The snapshot of server %s failed; its volume '
                        'snapshots taken stay: %s', instance.uuid,
                        ', '.join(made) or 'none')
            raise
    LOG.info('Snapshotted volume-backed server %s into image %s '
             '(snapshots %s)', instance.uuid, image['id'], ', '.join(made))
    return image


@contextlib.contextmanager
def _api_event(context, instance, event):
    """The event ``event`` of the request's instance action, recorded
    around work the API process does (Nova's ``api_`` events)."""
    event_id = db_actions.event_start(context, instance.uuid,
                                      context.request_id, event, None)
    try:
        yield
    except Exception as exc:
        db_actions.event_finish(context, event_id, 'Error',
                                details=str(exc))
        raise
    db_actions.event_finish(context, event_id, 'Success')
