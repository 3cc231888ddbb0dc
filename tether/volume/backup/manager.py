"""tether-backup's RPC endpoint: each method runs one flow (create,
restore, records) with the driver and the connector, on a backup no
other thread of this process works on."""

import threading

from oslo_config import cfg
from oslo_log import log as logging
import oslo_messaging as messaging
from oslo_utils import importutils

from tether import context as t_context
from tether.db.volume import backup as db_backups
from tether.db.volume import volume as db_volumes
from tether.drivers.volume.backup import connector
from tether.objects import fields
from tether.volume import backup_exception
from tether.volume import backup_state
from tether.volume.backup import create
from tether.volume.backup import records
from tether.volume.backup import restore
from tether.volume.backup import version
from tether.volume import exception

CONF = cfg.CONF
LOG = logging.getLogger(__name__)
B = fields.BackupStatus
VS = fields.VolumeStatus
# What a start takes up again.
LEFT_STATUSES = (B.CREATING, B.RESTORING, B.DELETING)


class BackupManager:
    """Thin endpoint; also the ``work`` the flows get (driver,
    connector, whether the service stops, and their checks)."""

    target = messaging.Target(version=version.RPC_API_VERSION)
    RPC_API_VERSION = version.RPC_API_VERSION

    def __init__(self, host):
        self.host = host
        self.driver = importutils.import_class(CONF.backup.driver)()
        self.connector = connector.Connector(CONF.backup.mount_point_base,
                                             CONF.backup.work_dir)
        self.stopping = False
        # The backups a flow of this process works on, and the flow a
        # message asked for meanwhile.
        self._working = set()
        self._pending = {}
        self._working_lock = threading.Lock()

    def _run(self, backup_id, flow, *args):
        """Run ``flow(*args)`` unless another flow of this backup runs:
        then after it (the last message that came meanwhile; each flow
        acts only from the status it expects)."""
        with self._working_lock:
            if backup_id in self._working:
                LOG.info('Backup %s is being worked on: %s runs after',
                         backup_id, flow.__name__)
                self._pending[backup_id] = (flow, args)
                return
            self._working.add(backup_id)
        try:
            while True:
                flow(*args)
                with self._working_lock:
                    pending = self._pending.pop(backup_id, None)
                    if pending is None or self.stopping:
                        return
                flow, args = pending
        finally:
            with self._working_lock:
                self._working.discard(backup_id)

    def keep_going(self, backup_id, status):
        """A check the driver calls between pieces: it raises
        BackupInterrupted once the service stops or the backup is no
        longer ``status`` (a force delete, a reset)."""
        context = t_context.get_admin_context()

        def check():
            if self.stopping:
                raise backup_exception.BackupInterrupted(
                    backup_id=backup_id, reason='tether-backup stops')
            found = create.fresh(context, backup_id)
            if found is None or found.status != status:
                raise backup_exception.BackupInterrupted(
                    backup_id=backup_id,
                    reason='it is %s now' % (found.status if found
                                             else 'gone'))
        return check

    def init_host(self, context):
        self.driver.check_for_setup_error()

    def reconcile(self, context):
        """Take up what this host left half done (see the docs); returns
        how many backups it found."""
        left = db_backups.get_all_by_host(context, self.host,
                                          LEFT_STATUSES)
        for backup in left:
            if self.stopping:
                break
            LOG.info('Reconciling backup %s left %s', backup.id,
                     backup.status)
            try:
                self._take_up(context, backup)
            except Exception:
                LOG.exception('Reconciling backup %s failed', backup.id)
        return len(left)

    def _take_up(self, context, backup):
        if backup.status == B.DELETING:
            self._run(backup.id, records.delete_backup, context, self,
                      backup.id)
        elif backup.status == B.CREATING:
            if backup.volume_id == backup_state.IMPORT_VOLUME_ID:
                # The record is gone with the message: import it again.
                create.fail(context, self, backup.id,
                            'the import was interrupted; import the '
                            'record again')
            else:
                self._run(backup.id, create.create_backup, context, self,
                          backup.id)
        elif backup.status == B.RESTORING:
            try:
                volume = db_volumes.get(context, backup.restore_volume_id)
            except exception.VolumeNotFound:
                volume = None
            if volume is not None and volume.status == VS.CREATING:
                # Its volume manager hands it over once it is made.
                return
            self._run(backup.id, restore.restore_backup, context, self,
                      backup.id, backup.restore_volume_id)

    # RPC methods -----------------------------------------------------------

    def create_backup(self, context, backup):
        self._run(backup.id, create.create_backup, context, self,
                  backup.id)

    def restore_backup(self, context, backup, volume_id, volume_is_new):
        # (A restore writes zeros only where the volume does not read
        # zeros already: a new volume is no different.)
        self._run(backup.id, restore.restore_backup, context, self,
                  backup.id, volume_id)

    def delete_backup(self, context, backup):
        self._run(backup.id, records.delete_backup, context, self,
                  backup.id)

    def import_record(self, context, backup, record):
        self._run(backup.id, records.import_record, context, self,
                  backup.id, record)


BINARY = fields.ServiceBinary.BACKUP
