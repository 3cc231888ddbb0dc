"""Exceptions of generic volume groups, their types and their snapshots
(the API and tether-volume)."""

from tether import exception


class GroupTypeNotFound(exception.NotFound):
    msg_fmt = 'Group type %(group_type_id)s could not be found.'
    error_code = 'volume.group_type.not_found'


class GroupTypeSpecsNotFound(exception.NotFound):
    msg_fmt = 'Group type %(group_type_id)s has no group spec %(key)s.'
    error_code = 'volume.group_type.spec_not_found'


class GroupTypeExists(exception.Conflict):
    msg_fmt = 'Group type with name %(name)s already exists.'
    error_code = 'volume.group_type.exists'


class GroupTypeInUse(exception.Invalid):
    msg_fmt = ('Group type %(group_type_id)s is still in use by groups; it '
               'cannot be deleted while they exist.')
    error_code = 'volume.group_type.in_use'


class DefaultGroupTypeNotFound(exception.NotFound):
    msg_fmt = ('Default group type can not be found (option '
               'default_group_type: %(name)s).')
    error_code = 'volume.group_type.no_default'


class GroupNotFound(exception.NotFound):
    msg_fmt = 'Group %(group_id)s could not be found.'
    error_code = 'volume.group.not_found'


class GroupMarkerNotFound(exception.NotFound):
    msg_fmt = 'Marker %(marker)s could not be found among the groups.'
    error_code = 'volume.group.marker_not_found'


class InvalidGroup(exception.Invalid):
    msg_fmt = 'Invalid group: %(reason)s'
    error_code = 'volume.group.invalid'


class InvalidGroupStatus(InvalidGroup):
    msg_fmt = ('Invalid group: group %(group_id)s is %(status)s; this needs '
               '%(expected)s.')
    error_code = 'volume.group.invalid_status'


class InvalidGroupVolume(InvalidGroup):
    """Cinder's InvalidVolume of a group update (add or remove)."""
    msg_fmt = 'Invalid volume: %(reason)s'
    error_code = 'volume.group.invalid_volume'


class GroupSnapshotNotFound(exception.NotFound):
    msg_fmt = 'GroupSnapshot %(group_snapshot_id)s could not be found.'
    error_code = 'volume.group_snapshot.not_found'


class GroupSnapshotMarkerNotFound(exception.NotFound):
    msg_fmt = ('Marker %(marker)s could not be found among the group '
               'snapshots.')
    error_code = 'volume.group_snapshot.marker_not_found'


class InvalidGroupSnapshot(exception.Invalid):
    msg_fmt = 'Invalid GroupSnapshot: %(reason)s'
    error_code = 'volume.group_snapshot.invalid'


class InvalidGroupSnapshotStatus(InvalidGroupSnapshot):
    msg_fmt = ('Invalid GroupSnapshot: group snapshot %(group_snapshot_id)s '
               'is %(status)s; this needs %(expected)s.')
    error_code = 'volume.group_snapshot.invalid_status'


class VolumeInGroup(exception.Invalid):
    """Cinder's 400 of a volume delete: a volume in a group goes with
    its group (delete-volumes) or leaves it first."""
    msg_fmt = ('Invalid volume: volume %(volume_id)s is in group '
               '%(group_id)s; remove it from the group first, or delete '
               'the group with its volumes.')
    error_code = 'volume.group.volume_in_group'


class SnapshotInGroupSnapshot(exception.Invalid):
    """Cinder's 400 of a snapshot delete: a snapshot taken in a group
    snapshot goes with it."""
    msg_fmt = ('Invalid snapshot: snapshot %(snapshot_id)s is part of group '
               'snapshot %(group_snapshot_id)s; delete the group snapshot.')
    error_code = 'volume.group_snapshot.member'
