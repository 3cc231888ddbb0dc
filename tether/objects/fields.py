"""Every state enum of the volume service, as oslo.versionedobjects fields."""

from oslo_versionedobjects import fields

BaseEnumField = fields.BaseEnumField
Enum = fields.Enum


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

    ALL = (CREATING, AVAILABLE, DELETING, ERROR, ERROR_DELETING,
           ERROR_MANAGING, MANAGING, ATTACHING, IN_USE, DETACHING,
           MAINTENANCE, RESTORING_BACKUP, ERROR_RESTORING, RESERVED,
           AWAITING_TRANSFER, BACKING_UP, ERROR_BACKING_UP, ERROR_EXTENDING,
           DOWNLOADING, UPLOADING, RETYPING, EXTENDING)

    def __init__(self):
        super().__init__(valid_values=VolumeStatus.ALL)


class VolumeStatusField(BaseEnumField):
    AUTO_TYPE = VolumeStatus()


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


# Statuses from which a volume may be deleted (no attachment, no operation
# in flight).
DELETABLE_STATUSES = (VolumeStatus.AVAILABLE, VolumeStatus.ERROR,
                      VolumeStatus.ERROR_RESTORING,
                      VolumeStatus.ERROR_EXTENDING,
                      VolumeStatus.ERROR_MANAGING,
                      VolumeStatus.ERROR_DELETING)

# os-reset_status refuses to leave a volume in these: an operation is running
# and its owner would be left with a row that lies.
RESET_STATUS_REFUSED = (VolumeStatus.DELETING, VolumeStatus.ERROR_DELETING,
                        VolumeStatus.DETACHING)
