"""Exceptions of the compute service about images: the image a server
boots from, whether it fits the flavor and its volumes, the volumes the
compute host makes of images, and the image proxy's metadata."""

from tether import exception


class ImageNotFoundForServer(exception.Invalid):
    """The image a server is to boot from does not exist, or the caller
    may not use it: Nova's 400."""
    msg_fmt = 'Can not find requested image %(image_id)s.'
    error_code = 'compute.image.not_found'


class ImageNotActive(exception.Invalid):
    msg_fmt = 'Image %(image_id)s is not active.'
    error_code = 'compute.image.not_active'


class ImageUnacceptable(exception.Invalid):
    msg_fmt = 'Image %(image_id)s is unacceptable: %(reason)s'
    error_code = 'compute.image.unacceptable'


class FlavorMemoryTooSmall(exception.Invalid):
    msg_fmt = ("Flavor's memory is too small for requested image: the "
               "flavor has %(memory_mb)s MiB, image %(image_id)s needs "
               "%(min_ram)s MiB (min_ram).")
    error_code = 'compute.flavor.memory_too_small'


class FlavorDiskSmallerThanImage(exception.Invalid):
    msg_fmt = ("Flavor's disk is too small for requested image. Flavor disk "
               "is %(flavor_size)i bytes, image is %(image_size)i bytes.")
    error_code = 'compute.flavor.disk_smaller_than_image'


class FlavorDiskSmallerThanMinDisk(exception.Invalid):
    msg_fmt = ("Flavor's disk is smaller than the minimum size specified in "
               "image metadata. Flavor disk is %(flavor_size)i bytes, "
               "minimum size is %(image_min_disk)i bytes.")
    error_code = 'compute.flavor.disk_smaller_than_min_disk'


class VolumeSmallerThanMinDisk(exception.Invalid):
    msg_fmt = ("Volume is smaller than the minimum size specified in image "
               "metadata. Volume size is %(volume_size)i bytes, minimum "
               "size is %(image_min_disk)i bytes.")
    error_code = 'compute.image.volume_smaller_than_min_disk'


class VolumeSmallerThanImage(exception.Invalid):
    msg_fmt = ("Volume is too small for image %(image_id)s. Volume size is "
               "%(volume_size)i bytes, image is %(image_size)i bytes.")
    error_code = 'compute.image.volume_smaller_than_image'


class BootFromVolumeRequiredForZeroDiskFlavor(exception.Forbidden):
    msg_fmt = ('Only volume-backed servers are allowed for flavors with '
               'zero disk.')
    error_code = 'compute.flavor.zero_disk'


class RootDiskTooSmall(exception.TetherException):
    """On the compute host: the data of the image does not fit the root
    disk (the image API recorded a smaller virtual size, or none)."""
    msg_fmt = ('Image %(image_id)s has a virtual size of %(image_size)i '
               'bytes, more than the root disk of %(disk_size)i bytes.')
    error_code = 'compute.virt.root_disk_too_small'


class VolumeNotCreated(exception.TetherException):
    """A volume the compute host made of an image for a new server did
    not become available (Nova's message)."""
    msg_fmt = ('Volume %(volume_id)s did not finish being created even after '
               'we waited %(seconds)s seconds or %(attempts)s attempts. And '
               'its status is %(volume_status)s.')
    error_code = 'compute.volume.not_created'


class BuildAborted(exception.TetherException):
    """The server was deleted while its build waited: it stops, and the
    delete removes what it made."""
    msg_fmt = 'Build of instance %(instance_id)s aborted: %(reason)s'
    error_code = 'compute.server.build_aborted'


class UnsupportedRescueImage(exception.Invalid):
    """The rescue image does not exist or cannot be read (Nova's 400)."""
    msg_fmt = 'Requested rescue image %(image)s is not supported: %(reason)s'
    error_code = 'compute.rescue.unsupported_image'


# Snapshots of servers into images (createImage, createBackup) ---------------

class SnapshotQuotaExceeded(exception.Forbidden):
    """Not enough of the volume snapshot quota for the snapshot of every
    volume of a volume-backed server (Nova's OverQuota, 403)."""
    msg_fmt = ('Quota exceeded for resources: [\'snapshots\']: %(count)d '
               'volume snapshots are needed, %(used)d of %(limit)d are '
               'used.')
    error_code = 'compute.image.snapshot_quota_exceeded'


class QuiesceNotSupported(exception.Conflict):
    """The server's image asks for a quiesced snapshot
    (``os_require_quiesce``), which tether cannot take: its guests have no
    agent (Nova's InstanceQuiesceFailed, 409)."""
    msg_fmt = ('Failed to quiesce instance %(instance_id)s: its image asks '
               'for a quiesced snapshot (os_require_quiesce), and tether '
               'has no guest agent to quiesce it.')
    error_code = 'compute.image.quiesce_not_supported'


# The metadata of images (the proxy to the image API, to 2.38) --------------

class ImageMetadataItemNotFound(exception.NotFound):
    msg_fmt = 'Image %(image_id)s has no metadata item %(key)s.'
    error_code = 'compute.image.metadata_not_found'


class ImageAttributeNotMetadata(exception.Invalid):
    msg_fmt = ('%(key)s is an attribute of the image, not one of its '
               'metadata items (properties).')
    error_code = 'compute.image.metadata_key_is_attribute'


class ImageMetadataChanged(exception.Conflict):
    """The image's properties kept changing under a replace."""
    msg_fmt = ('The metadata of image %(image_id)s changed while it was '
               'replaced; try again.')
    error_code = 'compute.image.metadata_changed'
