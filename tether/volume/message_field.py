"""What a user message says (Cinder's message_field): the resource, the
action that was under way and the detail of what failed, each an id with
its text. A message's event id is ``VOLUME_<resource>_<action>_<detail>``
and its text ``<action>:<detail>``; messages hold no text of their own,
so nothing of an exception reaches the user."""

import dataclasses


class Resource:
    VOLUME = 'VOLUME'
    VOLUME_SNAPSHOT = 'VOLUME_SNAPSHOT'


@dataclasses.dataclass(frozen=True)
class Field:
    id: str
    text: str


class Action:
    SCHEDULE_ALLOCATE_VOLUME = Field('001', 'schedule allocate volume')
    ATTACH_VOLUME = Field('002', 'attach volume')
    COPY_VOLUME_TO_IMAGE = Field('003', 'copy volume to image')
    UPDATE_ATTACHMENT = Field('004', 'update attachment')
    COPY_IMAGE_TO_VOLUME = Field('005', 'copy image to volume')
    UNMANAGE_VOLUME = Field('006', 'unmanage volume')
    EXTEND_VOLUME = Field('007', 'extend volume')
    CREATE_VOLUME_FROM_BACKEND = Field('008',
                                       'create volume from backend storage')
    SNAPSHOT_CREATE = Field('009', 'create snapshot')
    SNAPSHOT_DELETE = Field('010', 'delete snapshot')
    SNAPSHOT_UPDATE = Field('011', 'update snapshot')
    SNAPSHOT_METADATA_UPDATE = Field('012', 'update snapshot metadata')
    BACKUP_CREATE = Field('013', 'create backup')
    BACKUP_DELETE = Field('014', 'delete backup')
    BACKUP_RESTORE = Field('015', 'restore backup')
    REIMAGE_VOLUME = Field('016', 'reimage volume')


class Detail:
    UNKNOWN_ERROR = Field('001', 'An unknown error occurred.')
    DRIVER_NOT_INITIALIZED = Field('002',
                                   'Driver is not initialized at present.')
    NO_BACKEND_AVAILABLE = Field(
        '003', 'Could not find any available weighted backend.')
    FAILED_TO_UPLOAD_VOLUME = Field(
        '004', 'Failed to upload volume to image at backend.')
    VOLUME_ATTACH_MODE_INVALID = Field('005',
                                       "Volume's attach mode is invalid.")
    QUOTA_EXCEED = Field('006', 'Not enough quota resource for operation.')
    NOT_ENOUGH_SPACE_FOR_IMAGE = Field(
        '007', 'Image used for creating volume exceeds available space.')
    NOTIFY_COMPUTE_SERVICE_FAILED = Field(
        '009', 'Compute service failed to extend volume.')
    DRIVER_FAILED_EXTEND = Field('010',
                                 'Volume Driver failed to extend volume.')
    DRIVER_FAILED_CREATE = Field('012', 'Driver failed to create the volume.')
    SNAPSHOT_CREATE_ERROR = Field('013', 'Snapshot failed to create.')
    SNAPSHOT_DELETE_ERROR = Field('016', 'Snapshot failed to delete.')
    ATTACH_ERROR = Field('021', 'Failed to attach volume.')
    DETACH_ERROR = Field('022', 'Failed to detach volume.')
    VOLUME_INVALID_STATE = Field('027', 'Volume status is invalid.')
    REIMAGE_VOLUME_FAILED = Field(
        '028', 'Compute service failed to reimage volume.')
    IMAGE_FORMAT_UNACCEPTABLE = Field(
        '029', 'The image disk format must be the same as the volume '
               'format for the volume type you are requesting.')


def _all(kind):
    return {f.id: f for f in vars(kind).values() if isinstance(f, Field)}


ACTIONS = _all(Action)
DETAILS = _all(Detail)

# The detail of a failure an exception names (by class name, as Cinder
# maps them); other exceptions are an unknown error.
EXCEPTION_DETAILS = {
    'NoValidBackend': Detail.NO_BACKEND_AVAILABLE,
    'ImageTooBig': Detail.NOT_ENOUGH_SPACE_FOR_IMAGE,
    'ImageLimitExceeded': Detail.QUOTA_EXCEED,
    'SnapshotLimitExceeded': Detail.QUOTA_EXCEED,
}


def detail_of(exception=None, detail=None):
    """The detail of a message: an exception's (if it names one), else
    ``detail``, else an unknown error."""
    if exception is not None:
        for cls in type(exception).__mro__:
            if cls.__name__ in EXCEPTION_DETAILS:
                return EXCEPTION_DETAILS[cls.__name__]
    return detail or Detail.UNKNOWN_ERROR


def event_id(resource_type, action_id, detail_id):
    return 'VOLUME_%s_%s_%s' % (resource_type, action_id, detail_id)


def user_message(action_id, detail_id):
    """Cinder's text of a message: ``<action>:<detail>``."""
    action = ACTIONS.get(action_id)
    detail = DETAILS.get(detail_id, Detail.UNKNOWN_ERROR)
    return '%s:%s' % (action.text if action else 'unknown action',
                      detail.text)
