"""Every state enum of the volume and compute services, and the field
types their objects share (oslo.versionedobjects)."""

from oslo_versionedobjects import fields

BaseEnumField = fields.BaseEnumField
Enum = fields.Enum


class _JSONObject(fields.FieldType):
    """A JSON object (a dict of anything JSON can hold)."""

    @staticmethod
    def coerce(obj, attr, value):
        if not isinstance(value, dict):
            raise ValueError('%s must be a JSON object, not %r'
                             % (attr, type(value).__name__))
        return value


class JSONObjectField(fields.AutoTypedField):
    AUTO_TYPE = _JSONObject()


class VolumeStatus(Enum):
    CREATING = 'creating'
    AVAILABLE = 'available'
    DELETING = 'deleting'
    ERROR = 'error'
    ERROR_DELETING = 'error_deleting'
    ERROR_MANAGING = 'error_managing'
    MANAGING = 'managing'
    ATTACHING = 'attaching'
    IN_USE = 'in-use'
    DETACHING = 'detaching'
    MAINTENANCE = 'maintenance'
    RESTORING_BACKUP = 'restoring-backup'
    ERROR_RESTORING = 'error_restoring'
    RESERVED = 'reserved'
    AWAITING_TRANSFER = 'awaiting-transfer'
    BACKING_UP = 'backing-up'
    ERROR_BACKING_UP = 'error_backing-up'
    ERROR_EXTENDING = 'error_extending'
    DOWNLOADING = 'downloading'
    UPLOADING = 'uploading'
    RETYPING = 'retyping'
    EXTENDING = 'extending'
    # Reverted to its latest snapshot (the revert action, 3.40).
    REVERTING = 'reverting'

    ALL = (CREATING, AVAILABLE, DELETING, ERROR, ERROR_DELETING,
           ERROR_MANAGING, MANAGING, ATTACHING, IN_USE, DETACHING,
           MAINTENANCE, RESTORING_BACKUP, ERROR_RESTORING, RESERVED,
           AWAITING_TRANSFER, BACKING_UP, ERROR_BACKING_UP, ERROR_EXTENDING,
           DOWNLOADING, UPLOADING, RETYPING, EXTENDING, REVERTING)

    def __init__(self):
        super().__init__(valid_values=VolumeStatus.ALL)


class VolumeStatusField(BaseEnumField):
    AUTO_TYPE = VolumeStatus()


class SnapshotStatus(Enum):
    CREATING = 'creating'
    AVAILABLE = 'available'
    DELETING = 'deleting'
    ERROR = 'error'
    ERROR_DELETING = 'error_deleting'
    UNMANAGING = 'unmanaging'
    BACKING_UP = 'backing-up'
    RESTORING = 'restoring'

    ALL = (CREATING, AVAILABLE, DELETING, ERROR, ERROR_DELETING, UNMANAGING,
           BACKING_UP, RESTORING)
    # What an administrator may set with os-reset_status (Cinder's list).
    RESETTABLE = (CREATING, AVAILABLE, DELETING, ERROR, ERROR_DELETING)
    DELETABLE = (AVAILABLE, ERROR, ERROR_DELETING)

    def __init__(self):
        super().__init__(valid_values=SnapshotStatus.ALL)


class SnapshotStatusField(BaseEnumField):
    AUTO_TYPE = SnapshotStatus()


class BackupStatus(Enum):
    """A volume backup (Cinder's statuses; a deleted one is gone)."""
    CREATING = 'creating'
    AVAILABLE = 'available'
    DELETING = 'deleting'
    ERROR = 'error'
    ERROR_DELETING = 'error_deleting'
    RESTORING = 'restoring'

    ALL = (CREATING, AVAILABLE, DELETING, ERROR, ERROR_DELETING, RESTORING)
    # What an administrator may set with os-reset_status (Cinder's list).
    RESETTABLE = (AVAILABLE, ERROR)
    DELETABLE = (AVAILABLE, ERROR)

    def __init__(self):
        super().__init__(valid_values=BackupStatus.ALL)


class BackupStatusField(BaseEnumField):
    AUTO_TYPE = BackupStatus()


class GroupStatus(Enum):
    """A generic volume group (Cinder's statuses; a deleted one is gone)."""
    CREATING = 'creating'
    AVAILABLE = 'available'
    UPDATING = 'updating'
    IN_USE = 'in-use'
    DELETING = 'deleting'
    ERROR = 'error'
    ERROR_DELETING = 'error_deleting'

    ALL = (CREATING, AVAILABLE, UPDATING, IN_USE, DELETING, ERROR,
           ERROR_DELETING)
    # What an administrator may set with reset_status (Cinder's
    # group_status format: any status but deleted).
    RESETTABLE = ALL
    DELETABLE = (AVAILABLE, ERROR)

    def __init__(self):
        super().__init__(valid_values=GroupStatus.ALL)


class GroupStatusField(BaseEnumField):
    AUTO_TYPE = GroupStatus()


class GroupSnapshotStatus(Enum):
    """A snapshot of a group (Cinder's statuses; a deleted one is gone)."""
    CREATING = 'creating'
    AVAILABLE = 'available'
    DELETING = 'deleting'
    ERROR = 'error'
    ERROR_DELETING = 'error_deleting'

    ALL = (CREATING, AVAILABLE, DELETING, ERROR, ERROR_DELETING)
    # What an administrator may set with reset_status (Cinder's
    # group_snapshot_status format: any status but deleted).
    RESETTABLE = ALL
    DELETABLE = (AVAILABLE, ERROR)

    def __init__(self):
        super().__init__(valid_values=GroupSnapshotStatus.ALL)


class GroupSnapshotStatusField(BaseEnumField):
    AUTO_TYPE = GroupSnapshotStatus()


class VolumeAttachStatus(Enum):
    ATTACHED = 'attached'
    ATTACHING = 'attaching'
    DETACHED = 'detached'
    RESERVED = 'reserved'
    ERROR_ATTACHING = 'error_attaching'
    ERROR_DETACHING = 'error_detaching'
    DELETED = 'deleted'

    ALL = (ATTACHED, ATTACHING, DETACHED, RESERVED, ERROR_ATTACHING,
           ERROR_DETACHING, DELETED)

    def __init__(self):
        super().__init__(valid_values=VolumeAttachStatus.ALL)


class VolumeAttachStatusField(BaseEnumField):
    AUTO_TYPE = VolumeAttachStatus()


class ServiceBinary:
    VOLUME = 'tether-volume'
    BACKUP = 'tether-backup'
    COMPUTE = 'tether-compute'


# Statuses from which a volume may be deleted (no attachment, no operation
# in flight).
DELETABLE_STATUSES = (VolumeStatus.AVAILABLE, VolumeStatus.ERROR,
                      VolumeStatus.ERROR_RESTORING,
                      VolumeStatus.ERROR_EXTENDING,
                      VolumeStatus.ERROR_MANAGING,
                      VolumeStatus.ERROR_DELETING)

# Statuses from which an administrator's force delete (os-force_delete,
# DELETE ?force=true) may delete a volume: Cinder's "whatever its status",
# less those in which another service's operation holds the volume and
# would be left with rows that lie (a backup made or restored, a transfer
# offered, an extend the compute host answers, a retype, a revert). The
# manager's own work (a create, an image written or uploaded) notices the
# delete and gives way to it (tether.volume.manager).
FORCE_DELETABLE_STATUSES = DELETABLE_STATUSES + (
    VolumeStatus.CREATING, VolumeStatus.DOWNLOADING, VolumeStatus.UPLOADING,
    VolumeStatus.DELETING, VolumeStatus.ATTACHING, VolumeStatus.DETACHING,
    VolumeStatus.IN_USE, VolumeStatus.RESERVED, VolumeStatus.MAINTENANCE,
    VolumeStatus.MANAGING, VolumeStatus.ERROR_BACKING_UP)

# os-reset_status refuses to leave a volume in these: an operation is running
# and its owner would be left with a row that lies.
RESET_STATUS_REFUSED = (VolumeStatus.DELETING, VolumeStatus.ERROR_DELETING,
                        VolumeStatus.DETACHING)


# The compute service ------------------------------------------------------

class VmState(Enum):
    """What a server is (Nova's ``OS-EXT-STS:vm_state``)."""
    BUILDING = 'building'
    ACTIVE = 'active'
    STOPPED = 'stopped'
    # The guest's vCPUs stopped, its memory kept in its QEMU process.
    PAUSED = 'paused'
    # The guest's memory saved to a file on its host, its QEMU gone
    # (libvirt's managed save).
    SUSPENDED = 'suspended'
    # The guest booted from a rescue image, its own disks attached after
    # the rescue disk (status RESCUE).
    RESCUED = 'rescued'
    ERROR = 'error'
    DELETED = 'deleted'

    ALL = (BUILDING, ACTIVE, STOPPED, PAUSED, SUSPENDED, RESCUED, ERROR,
           DELETED)

    def __init__(self):
        super().__init__(valid_values=VmState.ALL)


class VmStateField(BaseEnumField):
    AUTO_TYPE = VmState()


class TaskState(Enum):
    """What is being done to a server (``OS-EXT-STS:task_state``)."""
    SCHEDULING = 'scheduling'
    BLOCK_DEVICE_MAPPING = 'block_device_mapping'
    SPAWNING = 'spawning'
    POWERING_ON = 'powering-on'
    POWERING_OFF = 'powering-off'
    REBOOTING = 'rebooting'
    REBOOTING_HARD = 'rebooting_hard'
    REBOOT_STARTED_HARD = 'reboot_started_hard'
    DELETING = 'deleting'
    # A rebuild: the guest removed and its root disk (or root volume)
    # re-imaged, then the volumes connected again, then the guest spawned.
    REBUILDING = 'rebuilding'
    REBUILD_BLOCK_DEVICE_MAPPING = 'rebuild_block_device_mapping'
    REBUILD_SPAWNING = 'rebuild_spawning'
    PAUSING = 'pausing'
    UNPAUSING = 'unpausing'
    SUSPENDING = 'suspending'
    RESUMING = 'resuming'
    RESCUING = 'rescuing'
    UNRESCUING = 'unrescuing'
    # A snapshot of the server into an image (createImage, createBackup):
    # claimed by the API, taken on the host, then uploaded.
    IMAGE_SNAPSHOT = 'image_snapshot'
    IMAGE_SNAPSHOT_PENDING = 'image_snapshot_pending'
    IMAGE_PENDING_UPLOAD = 'image_pending_upload'
    IMAGE_UPLOADING = 'image_uploading'
    IMAGE_BACKUP = 'image_backup'

    ALL = (SCHEDULING, BLOCK_DEVICE_MAPPING, SPAWNING, POWERING_ON,
           POWERING_OFF, REBOOTING, REBOOTING_HARD, REBOOT_STARTED_HARD,
           DELETING, REBUILDING, REBUILD_BLOCK_DEVICE_MAPPING,
           REBUILD_SPAWNING, PAUSING, UNPAUSING, SUSPENDING, RESUMING,
           RESCUING, UNRESCUING, IMAGE_SNAPSHOT, IMAGE_SNAPSHOT_PENDING,
           IMAGE_PENDING_UPLOAD, IMAGE_UPLOADING, IMAGE_BACKUP)

    # The task states an Instance before 1.5 cannot hold.
    PAUSES_AND_SUSPENDS = (PAUSING, UNPAUSING, SUSPENDING, RESUMING)
    # The task states an Instance before 1.6 cannot hold.
    RESCUES = (RESCUING, UNRESCUING)
    # The task states an Instance before 1.7 cannot hold: those of a
    # snapshot into an image.
    IMAGE_SNAPSHOTS = (IMAGE_SNAPSHOT, IMAGE_SNAPSHOT_PENDING,
                       IMAGE_PENDING_UPLOAD, IMAGE_UPLOADING, IMAGE_BACKUP)

    def __init__(self):
        super().__init__(valid_values=TaskState.ALL)


class TaskStateField(BaseEnumField):
    AUTO_TYPE = TaskState()


class BdmStatus:
    """A server's volume: the row exists from the attach request on."""
    ATTACHING = 'attaching'
    ATTACHED = 'attached'
    DETACHING = 'detaching'


class KeyPairType:
    """What a key pair holds (``/os-keypairs`` from 2.2): an SSH public key,
    or an X.509 certificate in PEM."""
    SSH = 'ssh'
    X509 = 'x509'

    ALL = (SSH, X509)


class ServerGroupPolicy:
    """How a server group places its members (``/os-server-groups``):
    on one host, each on another host (at most ``max_server_per_host``
    per host), or preferably so (the soft policies, from 2.15)."""
    AFFINITY = 'affinity'
    ANTI_AFFINITY = 'anti-affinity'
    SOFT_AFFINITY = 'soft-affinity'
    SOFT_ANTI_AFFINITY = 'soft-anti-affinity'

    HARD = (AFFINITY, ANTI_AFFINITY)
    ALL = HARD + (SOFT_AFFINITY, SOFT_ANTI_AFFINITY)


class ShareMappingStatus:
    """A share attached to a server (``/servers/{id}/shares``): attaching
    until its host was granted access, then inactive while the server is
    off and active while the guest has it; detaching until the access is
    revoked (then the row goes); error when a step failed."""
    ATTACHING = 'attaching'
    INACTIVE = 'inactive'
    ACTIVE = 'active'
    DETACHING = 'detaching'
    ERROR = 'error'

    ALL = (ATTACHING, INACTIVE, ACTIVE, DETACHING, ERROR)


class ShareProtocol:
    """The share protocols a server can mount over virtio-fs."""
    NFS = 'NFS'
    CEPHFS = 'CEPHFS'

    ALL = (NFS, CEPHFS)


class BdmSourceType:
    """What a server's disk is made of (Nova's ``source_type``): a
    volume of the user's, an image, a volume snapshot, or nothing (a new
    empty volume)."""
    VOLUME = 'volume'
    IMAGE = 'image'
    SNAPSHOT = 'snapshot'
    BLANK = 'blank'


class BdmDestinationType:
    """Where a server's disk lives (Nova's ``destination_type``): a
    volume of the volume service, or a local disk on the compute host."""
    VOLUME = 'volume'
    LOCAL = 'local'


class InstanceAction:
    """Names of the instance actions (os-instance-actions)."""
    CREATE = 'create'
    DELETE = 'delete'
    START = 'start'
    STOP = 'stop'
    REBOOT = 'reboot'
    ATTACH_VOLUME = 'attach_volume'
    DETACH_VOLUME = 'detach_volume'
    EXTEND_VOLUME = 'extend_volume'
    REBUILD = 'rebuild'
    ATTACH_SHARE = 'attach_share'
    DETACH_SHARE = 'detach_share'
    LOCK = 'lock'
    UNLOCK = 'unlock'
    PAUSE = 'pause'
    UNPAUSE = 'unpause'
    SUSPEND = 'suspend'
    RESUME = 'resume'
    RESCUE = 'rescue'
    UNRESCUE = 'unrescue'
    CREATE_IMAGE = 'createImage'
    BACKUP = 'createBackup'


class LockedBy:
    """Who locked a server (Nova's ``locked_by``): a user of its project
    (the owner), or anyone else (an admin)."""
    OWNER = 'owner'
    ADMIN = 'admin'

    ALL = (OWNER, ADMIN)
