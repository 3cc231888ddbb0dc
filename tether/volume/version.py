"""What each tether-volume speaks over RPC (no driver, no database).

A tether-volume records its RPC API version in its service record
(``rpc_current_version``): for the volume service that version is the
service version, and ``[upgrade_levels] volume = auto`` reads the oldest
one.
"""

from oslo_utils import versionutils

# The volume manager's RPC API (tether.volume.rpcapi lists the methods of
# each version).
RPC_API_VERSION = '1.8'

# The version of each object a volume manager of each RPC API version
# reads. A client pinned to an RPC version sends every object at the
# version its row names. Changing an object a manager of an older RPC
# version cannot read takes an RPC minor version and a row here
# (tests/unit/test_rpc_versions.py checks that the newest row names the
# objects of this tree).
RPC_OBJECT_VERSIONS = {
    # create_volume, delete_volume, extend_volume
    '1.0': {'Volume': '1.0'},
    # attachment_update, attachment_delete; a volume carries the
    # attachments attached to it
    '1.1': {'Volume': '1.1', 'Attachment': '1.0'},
    # create_volume of a volume whose image metadata names an image (made
    # from it); a volume carries its image metadata and use_quota
    '1.2': {'Volume': '1.2', 'Attachment': '1.0'},
    # copy_volume_to_image (os-volume_upload_image), reimage (os-reimage)
    '1.3': {'Volume': '1.2', 'Attachment': '1.0'},
    # create_volume and reimage take the image the API read (no second
    # read of the image API on the volume host)
    '1.4': {'Volume': '1.2', 'Attachment': '1.0'},
    # create_snapshot, delete_snapshot; create_volume of a volume made of
    # a snapshot or of another volume (its snapshot_id, source_volid)
    '1.5': {'Volume': '1.3', 'Attachment': '1.0', 'Snapshot': '1.0'},
    # get_backup_device (a call of tether-backup): where the data of a
    # volume or of its snapshot is
    '1.6': {'Volume': '1.3', 'Attachment': '1.0', 'Snapshot': '1.0'},
    # create_group_snapshot, delete_group_snapshot; a volume carries its
    # group, a snapshot its group snapshot
    '1.7': {'Volume': '1.4', 'Attachment': '1.0', 'Snapshot': '1.1'},
    # revert_to_snapshot (the revert action, 3.40); a volume's status
    # may be reverting
    '1.8': {'Volume': '1.5', 'Attachment': '1.0', 'Snapshot': '1.1'},
}


def rpc_version_of(recorded):
    """The RPC API version of a tether-volume that recorded ``recorded``
    (a record without one is older than every version)."""
    return recorded or min(RPC_OBJECT_VERSIONS,
                           key=versionutils.convert_version_to_tuple)
