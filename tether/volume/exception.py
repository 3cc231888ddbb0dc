"""Exceptions of the volume service.

The shared kinds (every class of tether.exception) are here under their
own names too, so that the volume service's code names one module.
"""

from tether import exception
# The shared kinds, tether.exception.__all__, under this module's name too.
from tether.exception import *  # noqa: F401,F403 - names again, on purpose


class InvalidVolume(exception.Invalid):
    msg_fmt = 'Invalid volume: %(reason)s'
    error_code = 'volume.volume.invalid'


class InvalidVolumeStatus(InvalidVolume):
    msg_fmt = ('Invalid volume: volume %(volume_id)s is %(status)s; '
               'expected %(expected)s.')
    error_code = 'volume.volume.invalid_status'


class VolumeNotFound(exception.NotFound):
    msg_fmt = 'Volume %(volume_id)s could not be found.'
    error_code = 'volume.volume.not_found'


class VolumeMetadataNotFound(exception.NotFound):
    msg_fmt = 'Volume %(volume_id)s has no metadata with key %(key)s.'
    error_code = 'volume.metadata.not_found'


class VolumeImageMetadataNotFound(exception.NotFound):
    msg_fmt = 'Volume %(volume_id)s has no image metadata with key %(key)s.'
    error_code = 'volume.image_metadata.not_found'


class VolumeTypeNotFound(exception.NotFound):
    msg_fmt = 'Volume type %(volume_type_id)s could not be found.'
    error_code = 'volume.type.not_found'


class VolumeTypeExtraSpecsNotFound(exception.NotFound):
    msg_fmt = 'Volume type %(volume_type_id)s has no extra spec %(key)s.'
    error_code = 'volume.type.extra_spec_not_found'


class VolumeTypeInUse(exception.Invalid):
    msg_fmt = ('Volume type %(volume_type_id)s is in use by volumes (or '
               'groups); '
               '%(what)s cannot be %(action)s while they exist.')
    error_code = 'volume.type.in_use'


class VolumeTypeIsDefault(exception.Invalid):
    msg_fmt = ('Volume type %(name)s is the default volume type '
               '(default_volume_type); it cannot be %(action)s.')
    error_code = 'volume.type.is_default'


class VolumeTypeIsProjectDefault(exception.Invalid):
    msg_fmt = ('Volume type %(volume_type_id)s is the default volume type '
               'of the projects %(projects)s (/default-types); it cannot be '
               'deleted.')
    error_code = 'volume.type.is_project_default'


class DefaultTypeNotFound(exception.NotFound):
    msg_fmt = 'Default type for project %(project_id)s not found.'
    error_code = 'volume.default_type.not_found'


class AttachmentNotFound(exception.NotFound):
    msg_fmt = 'Attachment %(attachment_id)s could not be found.'
    error_code = 'volume.attachment.not_found'


class InvalidAttachmentStatus(exception.Invalid):
    msg_fmt = ('Invalid attachment: attachment %(attachment_id)s is '
               '%(status)s; %(action)s needs it %(expected)s.')
    error_code = 'volume.attachment.invalid_status'


class VolumeHasAttachments(InvalidVolume):
    msg_fmt = ('Invalid volume: volume %(volume_id)s has attachment '
               '%(attachment_id)s (%(status)s); delete its attachments '
               'first.')
    error_code = 'volume.volume.has_attachments'


class VolumeAttachedToMany(exception.Conflict):
    """Cinder's 409 of os-reimage: only a volume with at most one
    attachment (the server being rebuilt) may be re-imaged."""
    msg_fmt = ('Volume %(volume_id)s has %(count)d attachments: a volume '
               'attached to more than one server cannot be re-imaged.')
    error_code = 'volume.volume.attached_to_many'


class InvalidRevert(InvalidVolume):
    msg_fmt = ('Invalid volume: volume %(volume_id)s cannot be reverted '
               'to snapshot %(snapshot_id)s: %(reason)s')
    error_code = 'volume.volume.invalid_revert'


class RevertConflict(exception.Conflict):
    """Cinder's 409 of a revert whose volume or snapshot is not
    available."""
    msg_fmt = ('Volume %(volume_id)s cannot be reverted to snapshot '
               '%(snapshot_id)s: %(reason)s')
    error_code = 'volume.volume.revert_conflict'


class VolumeTypeExists(exception.Conflict):
    msg_fmt = 'A volume type named %(name)s already exists.'
    error_code = 'volume.type.exists'


class VolumeTypeAccessExists(exception.Conflict):
    msg_fmt = ('Project %(project_id)s already has access to volume type '
               '%(volume_type_id)s.')
    error_code = 'volume.type.access_exists'


class VolumeTypeAccessNotFound(exception.NotFound):
    msg_fmt = ('Project %(project_id)s has no access to volume type '
               '%(volume_type_id)s.')
    error_code = 'volume.type.access_not_found'


class VolumeTypeIsPublic(exception.Invalid):
    """Cinder's InvalidVolumeType (400) for access changes; its listing of
    a public type's access is a 404 (VolumeTypeAccessNotFound there)."""
    msg_fmt = ('Volume type %(volume_type_id)s is public: %(what)s.')
    error_code = 'volume.type.is_public'


class VolumeTypeAccessListNotFound(exception.NotFound):
    """As Cinder: a public type has no access list to show (404)."""
    msg_fmt = ('Volume type %(volume_type_id)s is public: it has no access '
               'list.')
    error_code = 'volume.type.no_access_list'


class AttachmentConflict(exception.Conflict):
    msg_fmt = 'Attachment %(attachment_id)s cannot be updated: %(reason)s'
    error_code = 'volume.attachment.conflict'


class AttachmentInUse(exception.Conflict):
    msg_fmt = ('Attachment %(attachment_id)s is in use by instance '
               '%(instance_uuid)s; only the compute service (a caller with '
               'a service role) may delete it.')
    error_code = 'volume.attachment.in_use'


class OverQuota(exception.QuotaExceeded):
    msg_fmt = ('Requested %(resource)s of %(requested)s exceeds the quota: '
               'limit %(limit)s, in use %(in_use)s, reserved %(reserved)s.')
    error_code = 'volume.quota.exceeded'


class VolumeSizeExceedsLimit(exception.QuotaExceeded):
    msg_fmt = ('Requested volume size %(size)sG is larger than the maximum '
               'allowed per volume, %(limit)sG.')
    error_code = 'volume.quota.volume_size'


class BackendOperationFailed(exception.OperationFailed):
    """The backend failed a call the API waited for; the state says so."""
    msg_fmt = 'The volume backend failed: %(reason)s'
    error_code = 'volume.backend.failed'


class AttachmentConnectFailed(BackendOperationFailed):
    msg_fmt = ('The volume backend could not connect volume %(volume_id)s '
               'for attachment %(attachment_id)s (%(reason)s). The '
               'attachment is error_attaching: delete it and attach again.')
    error_code = 'volume.attachment.connect_failed'


class AttachmentDisconnectFailed(BackendOperationFailed):
    msg_fmt = ('The volume backend could not disconnect attachment '
               '%(attachment_id)s of volume %(volume_id)s (%(reason)s). The '
               'attachment is %(status)s: delete it again.')
    error_code = 'volume.attachment.disconnect_failed'


class VolumeBackendAPIException(exception.TetherException):
    msg_fmt = 'Volume backend error: %(data)s'
    error_code = 'volume.backend.error'


class ExtendFailed(VolumeBackendAPIException):
    msg_fmt = 'Cannot extend volume %(volume_id)s: %(reason)s'
    error_code = 'volume.volume.extend_failed'


class ExtendNeedsHypervisor(exception.TetherException):
    """A driver's answer to extend_volume: a hypervisor holds the volume
    and only it can grow it (QEMU's block_resize of a locked file)."""
    msg_fmt = ('Volume %(volume_id)s is in use by a hypervisor: only it can '
               'grow the volume.')
    error_code = 'volume.volume.extend_needs_hypervisor'


class VolumeNotExtending(exception.Invalid):
    msg_fmt = 'Volume %(volume_id)s is not being extended: %(reason)s'
    error_code = 'volume.volume.not_extending'


class RemoteFSNoSharesMounted(VolumeBackendAPIException):
    msg_fmt = 'No share could be mounted: %(reason)s'
    error_code = 'volume.backend.no_share_mounted'


class RemoteFSNoSuitableShare(VolumeBackendAPIException):
    msg_fmt = 'No share has room for %(size)sG.'
    error_code = 'volume.backend.no_suitable_share'


class AssistedSnapshotFailed(VolumeBackendAPIException):
    """The compute host of an attached volume's server did not take or
    merge a snapshot (refused, reported an error, or did not answer)."""
    msg_fmt = ('The compute host of volume %(volume_id)s did not %(what)s '
               'snapshot %(snapshot_id)s: %(reason)s')
    error_code = 'volume.backend.assist_failed'


class RemoteFSSnapshotChainBroken(VolumeBackendAPIException):
    """The files of a volume's snapshots on its share are not what its
    info file says (a file missing, a backing file of another volume)."""
    msg_fmt = ('The snapshot files of volume %(volume_id)s are not as its '
               'info file says: %(reason)s')
    error_code = 'volume.backend.snapshot_chain_broken'


class RemoteFSVolumeHasSnapshots(VolumeBackendAPIException):
    """An image written into a volume with snapshots would replace the
    file that stacks on them: the driver refuses."""
    msg_fmt = ('Volume %(volume_id)s has snapshots: an image is not '
               'written into it; delete its snapshots first.')
    error_code = 'volume.backend.volume_has_snapshots'


class ImageUnacceptable(exception.Invalid):
    msg_fmt = 'Image %(image_id)s cannot be used: %(reason)s'
    error_code = 'volume.image.unacceptable'


class InvalidAvailabilityZone(exception.Invalid):
    """A volume asked for in a zone no volume service is in: Cinder's
    400, before anything is stored or counted."""
    msg_fmt = "Availability zone '%(az)s' is invalid."
    error_code = 'volume.availability_zone.invalid'


class InvalidImageRef(exception.Invalid):
    """Cinder's answer to an imageRef it cannot find or may not use (400,
    not 404: the request is wrong, not the URL)."""
    msg_fmt = ('Invalid image identifier or unable to access requested '
               'image: %(image_ref)s.')
    error_code = 'volume.image.invalid_ref'


class SnapshotNotFound(exception.NotFound):
    msg_fmt = 'Snapshot %(snapshot_id)s could not be found.'
    error_code = 'volume.snapshot.not_found'


class SnapshotMetadataNotFound(exception.NotFound):
    msg_fmt = 'Snapshot %(snapshot_id)s has no metadata with key %(key)s.'
    error_code = 'volume.snapshot.metadata_not_found'


class InvalidSnapshotStatus(exception.Invalid):
    msg_fmt = ('Invalid snapshot: snapshot %(snapshot_id)s is %(status)s; '
               'this needs %(expected)s.')
    error_code = 'volume.snapshot.invalid_status'


class VolumeHasSnapshots(InvalidVolume):
    msg_fmt = ('Invalid volume: volume %(volume_id)s has %(count)d '
               'snapshots; delete them first, or delete the volume with '
               'cascade=true.')
    error_code = 'volume.volume.has_snapshots'


class SnapshotInUse(exception.Invalid):
    msg_fmt = ('Invalid snapshot: volume %(volume_id)s is being made of '
               'snapshot %(snapshot_id)s; try again once it is made.')
    error_code = 'volume.snapshot.in_use'


class VolumeBeingCopied(InvalidVolume):
    msg_fmt = ('Invalid volume: volume %(clone_id)s is being made of volume '
               '%(volume_id)s; try again once it is made.')
    error_code = 'volume.volume.being_copied'


class SnapshotMarkerNotFound(exception.NotFound):
    msg_fmt = 'Marker %(marker)s could not be found among the snapshots.'
    error_code = 'volume.snapshot.marker_not_found'


class TransferNotFound(exception.NotFound):
    msg_fmt = 'Transfer %(transfer_id)s could not be found.'
    error_code = 'volume.transfer.not_found'


class TransferMarkerNotFound(exception.NotFound):
    msg_fmt = 'Marker %(marker)s could not be found among the transfers.'
    error_code = 'volume.transfer.marker_not_found'


class InvalidAuthKey(exception.Invalid):
    """Cinder's 400 of an accept with the wrong key."""
    msg_fmt = 'Invalid auth key: %(reason)s'
    error_code = 'volume.transfer.invalid_auth_key'


class QoSSpecsNotFound(exception.NotFound):
    msg_fmt = 'QoS specs %(specs_id)s could not be found.'
    error_code = 'volume.qos_specs.not_found'


class QoSSpecsExists(exception.Conflict):
    msg_fmt = 'QoS specs %(name)s already exist.'
    error_code = 'volume.qos_specs.exists'


class QoSSpecsKeyNotFound(exception.NotFound):
    msg_fmt = 'QoS specs %(specs_id)s have no key %(key)s.'
    error_code = 'volume.qos_specs.key_not_found'


class QoSSpecsInUse(exception.Invalid):
    """Cinder's 400 "Qos specs still in use" of a delete without force."""
    msg_fmt = ('QoS specs %(specs_id)s are associated with volume types; '
               'disassociate them first, or delete with force=true.')
    error_code = 'volume.qos_specs.in_use'


class VolumeTypeHasQoSSpecs(exception.Invalid):
    """Cinder's InvalidVolumeType (400): a type has one QoS specs."""
    msg_fmt = ('Volume type %(volume_type_id)s is already associated with '
               'other QoS specs: %(qos_specs_id)s.')
    error_code = 'volume.type.has_qos_specs'


class MessageNotFound(exception.NotFound):
    msg_fmt = 'Message %(message_id)s could not be found.'
    error_code = 'volume.message.not_found'


class ServiceNotFound(exception.NotFound):
    msg_fmt = 'Service %(binary)s on host %(host)s could not be found.'
    error_code = 'volume.service.not_found'


class ServiceFrozenState(exception.Invalid):
    msg_fmt = 'The volume service of host %(host)s is %(state)s already.'
    error_code = 'volume.service.frozen_state'


class InvalidServiceHost(exception.Invalid):
    """Cinder's 400 of a freeze or thaw of a host it does not have."""
    msg_fmt = 'No volume service runs on host %(host)s.'
    error_code = 'volume.service.invalid_host'


class BackendFrozen(exception.Invalid):
    """Cinder's 400 (assert_not_frozen) of what would change a frozen
    backend's storage."""
    msg_fmt = ('The backend %(host)s of %(what)s is frozen; an '
               'administrator thaws it first.')
    error_code = 'volume.service.frozen'


class RetypeNeedsMigration(exception.Invalid):
    """A retype whose type the volume's backend does not satisfy: tether
    does not migrate volumes (Cinder's scheduler would, with
    migration_policy on-demand)."""
    msg_fmt = ('The backend of volume %(volume_id)s does not satisfy the '
               'extra specs of type %(type)s, and tether does not migrate '
               'volumes to another backend (migration_policy '
               '%(policy)s).')
    error_code = 'volume.volume.retype_needs_migration'
