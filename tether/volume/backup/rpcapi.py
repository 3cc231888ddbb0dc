"""Versioned RPC client of tether-backup (the API process and
tether-volume send it work)."""

from oslo_config import cfg
import oslo_messaging as messaging
from oslo_utils import versionutils

from tether import context as t_context
from tether.db.volume import service as db_services
from tether.objects import fields
from tether import rpc
from tether.volume.backup import version as backup_version

CONF = cfg.CONF
TOPIC = 'tether-backup'
BINARY = fields.ServiceBinary.BACKUP


def _oldest_service():
    rows = db_services.get_all(t_context.get_admin_context(), binary=BINARY)
    if not rows:
        return None
    oldest = min(rows, key=lambda r: versionutils.convert_version_to_tuple(
        backup_version.rpc_version_of(r.rpc_current_version)))
    found = backup_version.rpc_version_of(oldest.rpc_current_version)
    return found, '%s (%s)' % (found, oldest.host)


class BackupAPI:
    """Client side of the backup manager's RPC API.

    API version history:

    * 1.0 - create_backup, restore_backup, delete_backup, import_record
      (casts); Backup 1.0
    """

    RPC_API_VERSION = backup_version.RPC_API_VERSION

    def __init__(self):
        target = messaging.Target(topic=TOPIC, version='1.0')
        self.pin = rpc.version_pin('backup', BINARY,
                                   backup_version.RPC_OBJECT_VERSIONS,
                                   _oldest_service)
        self.client = rpc.get_client(target, pin=self.pin)

    def _prepare(self, backup):
        return self.client.prepare(server=backup.host, version='1.0')

    def create_backup(self, ctxt, backup):
        self._prepare(backup).cast(ctxt, 'create_backup', backup=backup)

    def restore_backup(self, ctxt, backup, volume_id, volume_is_new):
        """Write the backup into the volume (``restoring-backup``);
        ``volume_is_new``: made for it, it reads zeros."""
        self._prepare(backup).cast(ctxt, 'restore_backup', backup=backup,
                                   volume_id=volume_id,
                                   volume_is_new=volume_is_new)

    def delete_backup(self, ctxt, backup):
        self._prepare(backup).cast(ctxt, 'delete_backup', backup=backup)

    def import_record(self, ctxt, backup, record):
        """Check that the repository holds what ``record`` (an exported
        record, decoded) names, then make the backup available."""
        self._prepare(backup).cast(ctxt, 'import_record', backup=backup,
                                   record=record)


_client = None


def get():
    """The process's client of tether-backup, made on first use (again
    while ``[upgrade_levels] backup = auto`` finds no tether-backup)."""
    global _client
    if _client is None or not _client.pin.final:
        _client = BackupAPI()
    return _client
