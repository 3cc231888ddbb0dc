"""What each tether-backup speaks over RPC (no driver, no database).

A tether-backup records its RPC API version in its service record
(``rpc_current_version``); ``[upgrade_levels] backup = auto`` reads the
oldest one.
"""

from oslo_utils import versionutils

# The backup manager's RPC API (tether.volume.backup.rpcapi lists the
# methods of each version).
RPC_API_VERSION = '1.0'

# The version of each object a backup manager of each RPC API version
# reads (tests/unit/test_rpc_versions.py checks the newest row).
RPC_OBJECT_VERSIONS = {
    # create_backup, restore_backup, delete_backup, import_record
    '1.0': {'Backup': '1.0'},
}


def rpc_version_of(recorded):
    """The RPC API version of a tether-backup that recorded
    ``recorded``."""
    return recorded or min(RPC_OBJECT_VERSIONS,
                           key=versionutils.convert_version_to_tuple)
