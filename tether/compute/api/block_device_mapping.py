"""What a new server boots from, in the API process: ``imageRef`` and the
``block_device_mapping_v2`` entries of ``POST /servers`` read as Nova
reads them, the images checked against the flavor with the caller's
token, before anything is made.

A server boots from one of:

* an image, onto a local root disk (``imageRef``; the entry ``image ->
  local`` with ``boot_index`` 0 that ``openstack server create --image``
  adds may name the same image);
* a volume of the user (``volume -> volume``, ``boot_index`` 0);
* a new volume the compute host makes of an image (``image -> volume``,
  ``boot_index`` 0, with a ``volume_size``; ``openstack server create
  --image IMG --boot-from-volume N``) or of a volume snapshot
  (``snapshot -> volume``; its size is the snapshot's unless given).

Further entries are data volumes, given (``volume -> volume``), made of
images or snapshots, or new and empty (``blank -> volume``, with a
``volume_size``).
"""

import dataclasses
import json

from oslo_log import log as logging

from tether.compute import exception
from tether.compute import image_exception
from tether import images
from tether.objects import fields

LOG = logging.getLogger(__name__)
GiB = 1024 ** 3
SOURCE = fields.BdmSourceType
DESTINATION = fields.BdmDestinationType
# The container formats whose data is the disk itself.
CONTAINER_FORMATS = ('bare',)


@dataclasses.dataclass(frozen=True)
class Device:
    """One entry of ``block_device_mapping_v2``, as the handler read it."""
    source_type: str
    destination_type: str
    uuid: str | None
    boot_index: int | None = None
    delete_on_termination: bool = False
    tag: str | None = None
    volume_size: int | None = None

    @property
    def is_root(self):
        return self.boot_index == 0

    @property
    def made_of_image(self):
        return (self.source_type == SOURCE.IMAGE and
                self.destination_type == DESTINATION.VOLUME)

    @property
    def made_by_host(self):
        """A volume the compute host makes: of an image, of a snapshot,
        or empty."""
        return (self.source_type != SOURCE.VOLUME and
                self.destination_type == DESTINATION.VOLUME)


@dataclasses.dataclass(frozen=True)
class Plan:
    """What a server is made of: the image of its local root disk (None:
    it boots from a volume) and its volumes, given or to be made."""
    image_id: str | None
    volumes: tuple

    @property
    def needs_images(self):
        """Whether the compute host must know how to build from images
        (RPC 1.2, service version 4)."""
        return self.image_id is not None or any(
            d.made_of_image for d in self.volumes)

    @property
    def needs_snapshots(self):
        """Whether the compute host must know how to make volumes of
        snapshots and empty ones (RPC 1.9, service version 11)."""
        return any(d.made_by_host and not d.made_of_image
                   for d in self.volumes)


def _invalid(reason):
    return exception.InvalidBDM(reason=reason)


def plan(image_id, devices):
    """The :class:`Plan` of ``imageRef`` (``image_id``, None when empty)
    and the :class:`Device` entries; InvalidBDM when they do not make
    one server."""
    for device in devices:
        if device.source_type != SOURCE.BLANK and not device.uuid:
            raise _invalid('Missing device UUID.')
        if (device.source_type in (SOURCE.SNAPSHOT, SOURCE.BLANK) and
                device.destination_type != DESTINATION.VOLUME):
            # Nova's ephemeral and swap disks (blank -> local) are not
            # made by tether's hosts.
            raise _invalid('a %s can only become a volume '
                           "(destination_type 'volume'); tether makes no "
                           'local ephemeral or swap disks'
                           % device.source_type)
    roots = [d for d in devices if d.is_root]
    if len(roots) > 1:
        raise _invalid('only one block_device_mapping_v2 entry may have '
                       'boot_index 0 (the root disk); %d have it'
                       % len(roots))
    for device in devices:
        if device.destination_type != DESTINATION.LOCAL:
            continue
        if not (image_id and device.is_root and
                device.source_type == SOURCE.IMAGE):
            raise _invalid('Mapping image to local is not supported.')
        if device.uuid != image_id:
            raise _invalid('the local root disk (image %s) must be the '
                           'image of imageRef (%s)' % (device.uuid,
                                                       image_id))
    volumes = [d for d in devices
               if d.destination_type == DESTINATION.VOLUME]
    if image_id and any(d.is_root for d in volumes):
        # Nova's: a root volume wins over imageRef (which Tempest and
        # Horizon send beside it); the server boots from the volume.
        image_id = None
    if not image_id and not roots:
        raise _invalid('no entry has boot_index 0: without imageRef, one '
                       'block_device_mapping_v2 entry is the root disk')
    seen = set()
    for device in volumes:
        if device.source_type in (SOURCE.IMAGE, SOURCE.BLANK):
            if not device.volume_size:
                raise _invalid("%ss with destination_type 'volume' need "
                               "to have a non-zero size specified"
                               % device.source_type.capitalize())
            continue
        if device.source_type == SOURCE.SNAPSHOT:
            continue
        if device.uuid in seen:
            raise _invalid('volume %s is given twice.' % device.uuid)
        seen.add(device.uuid)
    # The root disk first, then the others in the order given.
    volumes.sort(key=lambda d: not d.is_root)
    return Plan(image_id=image_id, volumes=tuple(volumes))


# The images, with the caller's token -----------------------------------------

def _size(image):
    """What the image needs of a disk: its data's size or its virtual
    size, whichever the image API recorded larger."""
    return max(int(image.get('size') or 0),
               int(image.get('virtual_size') or 0))


def check_usable(image):
    image_id = image['id']
    if image.get('status') != 'active':
        raise image_exception.ImageNotActive(image_id=image_id)
    if image.get('container_format') not in CONTAINER_FORMATS:
        raise image_exception.ImageUnacceptable(
            image_id=image_id,
            reason='its container format is %s; servers boot from images '
                   'in container format %s'
                   % (image.get('container_format'),
                      ', '.join(CONTAINER_FORMATS)))
    if image.get('disk_format') not in images.SOURCE_FORMATS:
        raise image_exception.ImageUnacceptable(
            image_id=image_id,
            reason='its disk format is %s; servers boot from images in '
                   'disk format %s' % (image.get('disk_format'),
                                       ', '.join(images.SOURCE_FORMATS)))


def check_memory(image, flavor):
    min_ram = int(image.get('min_ram') or 0)
    if flavor.memory_mb < min_ram:
        raise image_exception.FlavorMemoryTooSmall(
            memory_mb=flavor.memory_mb, image_id=image['id'],
            min_ram=min_ram)


def check_local_root(image, flavor, zero_disk_allowed):
    """The image of a local root disk against the flavor, as Nova checks
    it: a flavor with a root disk of 0 takes the image's size, which
    only those the policy allows may ask for."""
    root = flavor.root_gb * GiB
    if root == 0:
        if not zero_disk_allowed:
            raise image_exception.BootFromVolumeRequiredForZeroDiskFlavor()
        return
    if _size(image) > root:
        raise image_exception.FlavorDiskSmallerThanImage(
            flavor_size=root, image_size=_size(image))
    min_disk = int(image.get('min_disk') or 0) * GiB
    if min_disk > root:
        raise image_exception.FlavorDiskSmallerThanMinDisk(
            flavor_size=root, image_min_disk=min_disk)


def _check_volume(image, device):
    size = device.volume_size * GiB
    min_disk = int(image.get('min_disk') or 0) * GiB
    if min_disk > size:
        raise image_exception.VolumeSmallerThanMinDisk(
            volume_size=size, image_min_disk=min_disk)
    if _size(image) > size:
        raise image_exception.VolumeSmallerThanImage(
            image_id=image['id'], volume_size=size, image_size=_size(image))


def get_image(context, image_id):
    """The image a server boots from, read with the caller's token."""
    try:
        return images.for_caller(context).get(image_id)
    except (exception.ImageNotFound, exception.ImageNotAuthorized):
        raise image_exception.ImageNotFoundForServer(image_id=image_id)


def check_images(context, boot, flavor, zero_disk_allowed=False,
                 known=None):
    """Check every image of ``boot`` (a :class:`Plan`) with the caller's
    token: it exists for the caller, is active, is a bare disk in a disk
    format tether reads, and fits the flavor (the root's memory, the
    local root disk) or the volume it is made into. ``known``: {image id:
    image} read already. Returns {image id: image} of the images
    checked."""
    client = images.for_caller(context)
    known = known or {}
    found = {}
    if boot.image_id:
        image = known.get(boot.image_id) or get_image(context, boot.image_id)
        if maps_volumes(image):
            raise image_exception.ImageUnacceptable(
                image_id=image['id'],
                reason='it maps volumes and has no data of its own')
        check_usable(image)
        check_memory(image, flavor)
        check_local_root(image, flavor, zero_disk_allowed)
        found[image['id']] = image
    for device in boot.volumes:
        if not device.made_of_image:
            continue
        image = found.get(device.uuid)
        if image is None:
            image = known.get(device.uuid)
            if image is None:
                try:
                    image = client.get(device.uuid)
                except (exception.ImageNotFound,
                        exception.ImageNotAuthorized):
                    raise _invalid('failed to get image %s.' % device.uuid)
            check_usable(image)
            found[image['id']] = image
        if device.is_root:
            check_memory(image, flavor)
        _check_volume(image, device)
    return found


# Images that map volumes (snapshots of volume-backed servers) ---------------

def _mappings(image):
    """The ``block_device_mapping`` of an image whose properties map
    volumes (``bdm_v2``: a snapshot of a volume-backed server, Nova's
    format), else None."""
    if str(image.get('bdm_v2', '')).lower() not in ('true', '1', 'yes'):
        return None
    value = image.get('block_device_mapping')
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            value = None
    if not isinstance(value, list) or not all(isinstance(m, dict)
                                              for m in value):
        raise image_exception.ImageUnacceptable(
            image_id=image['id'],
            reason='its block_device_mapping property is not a list of '
                   'mappings')
    return value


def maps_volumes(image):
    """Whether the image is one of properties that map volumes (a
    snapshot of a volume-backed server): it has no data to boot or to
    write into a volume."""
    return _mappings(image) is not None


def _device_of(image, mapping):
    source = mapping.get('source_type')
    uuid = {SOURCE.SNAPSHOT: mapping.get('snapshot_id'),
            SOURCE.VOLUME: mapping.get('volume_id'),
            SOURCE.IMAGE: mapping.get('image_id')}.get(source)
    if source not in (SOURCE.SNAPSHOT, SOURCE.VOLUME, SOURCE.IMAGE,
                      SOURCE.BLANK) or \
            mapping.get('destination_type') != DESTINATION.VOLUME:
        raise image_exception.ImageUnacceptable(
            image_id=image['id'],
            reason='its block_device_mapping has an entry tether cannot '
                   'make (source %s, destination %s)'
                   % (source, mapping.get('destination_type')))
    index = mapping.get('boot_index')
    size = mapping.get('volume_size')
    return Device(source_type=source,
                  destination_type=DESTINATION.VOLUME, uuid=uuid,
                  boot_index=None if index is None or int(index) < 0
                  else int(index),
                  delete_on_termination=bool(
                      mapping.get('delete_on_termination')),
                  tag=mapping.get('tag'),
                  volume_size=int(size) if size else None)


def image_devices(image, devices):
    """The disks of a server booted from ``image`` when the image maps
    volumes (Nova's image-defined block device mappings): the image's
    mappings, with the request's own entries after them (an entry that
    names a root disk made of an image is dropped: the image's root
    wins), and no local root disk. None when the image maps no volumes."""
    mappings = _mappings(image)
    if mappings is None:
        return None
    defined = [_device_of(image, m) for m in mappings]
    if not any(d.is_root for d in defined):
        raise image_exception.ImageUnacceptable(
            image_id=image['id'],
            reason='it maps volumes but no root disk (boot_index 0), and '
                   'has no data to boot')
    kept = [d for d in devices
            if not (d.is_root and d.source_type == SOURCE.IMAGE)]
    return defined + kept


def image_defined(context, image_ref, devices):
    """(image_ref, devices, {image id: image read}) of a request whose
    boot image (``imageRef``, or the image of a root volume to be made
    of one) may map volumes: a snapshot of a volume-backed server boots
    from volumes made of its snapshots (Nova's image-defined mappings)."""
    root = next((d for d in devices if d.is_root and d.made_of_image),
                None)
    boot_image_id = image_ref or (root.uuid if root else None)
    if boot_image_id is None:
        return image_ref, devices, {}
    if image_ref:
        image = get_image(context, image_ref)
    else:
        try:
            image = images.for_caller(context).get(boot_image_id)
        except (exception.ImageNotFound, exception.ImageNotAuthorized):
            raise _invalid('failed to get image %s.' % boot_image_id)
    mapped = image_devices(image, devices)
    if mapped is None:
        return image_ref, devices, {image['id']: image}
    LOG.info('Image %s maps volumes: the server boots from volumes made '
             'of them', image['id'])
    return None, mapped, {}


def snapshot_size(client, device):
    """The size of the volume of a ``snapshot -> volume`` entry: the one
    given, else the snapshot's (read with the caller's token: a snapshot
    the caller cannot see is refused here, before anything is made)."""
    try:
        snapshot = client.get_snapshot(device.uuid)
    except exception.SnapshotNotFound:
        raise _invalid('failed to get snapshot %s: it does not exist or '
                       'belongs to another project.' % device.uuid)
    if snapshot['status'] != 'available':
        raise _invalid('snapshot %s is %s; a volume is made of an '
                       'available snapshot.'
                       % (device.uuid, snapshot['status']))
    if device.volume_size is None:
        return snapshot['size']
    if device.volume_size < snapshot['size']:
        raise _invalid('the volume of snapshot %s would be %d GiB, '
                       'smaller than the snapshot (%d GiB).' % (
                           device.uuid, device.volume_size,
                           snapshot['size']))
    return device.volume_size
