"""A running tether-backup: its manager, RPC server, service record and
heartbeats, and the reconciliation of what it left half done."""

import threading

from oslo_config import cfg
from oslo_log import log as logging
import oslo_messaging as messaging

from tether import context as t_context
from tether.db.volume import service as db_services
from tether.objects import base as objects_base
from tether import periodic
from tether import rpc
from tether.volume.backup import manager as backup_manager
from tether.volume.backup import rpcapi as backup_rpcapi

CONF = cfg.CONF
LOG = logging.getLogger(__name__)


class BackupService:
    """Everything ``tether-backup`` runs (one per host, ``[DEFAULT]
    host``)."""

    def __init__(self, host=None):
        self.host = host or CONF.host
        self.manager = backup_manager.BackupManager(self.host)
        self.context = t_context.get_admin_context()
        self.server = None
        self.service_id = None
        self.periodics = []
        self.reconciler = None

    def start(self):
        self.manager.init_host(self.context)
        self.service_id = db_services.register(
            self.context, self.host, backup_manager.BINARY,
            backup_rpcapi.TOPIC, CONF.storage_availability_zone,
            backup_rpcapi.BackupAPI.RPC_API_VERSION,
            objects_base.TetherObjectRegistry.obj_classes()['Backup'][0]
            .VERSION)
        target = messaging.Target(topic=backup_rpcapi.TOPIC,
                                  server=self.host)
        self.server = rpc.get_server(target, [self.manager])
        self.server.start()
        self.periodics = [periodic.Periodic('backup-heartbeat',
                                            CONF.report_interval,
                                            self._heartbeat)]
        for p in self.periodics:
            p.start()
        # In a thread of its own: a backup taken up again may take hours,
        # and the service serves (and reports) meanwhile.
        self.reconciler = threading.Thread(
            target=self._reconcile, name='backup-reconcile', daemon=True)
        self.reconciler.start()
        LOG.info('Backup service %s started', self.host)

    def _heartbeat(self):
        db_services.heartbeat(self.context, self.service_id)

    def _reconcile(self):
        try:
            count = self.manager.reconcile(self.context)
        except Exception:
            LOG.exception('Reconciling the backups of %s failed', self.host)
            return
        if count:
            LOG.info('%s: reconciled %d backups left mid-operation',
                     self.host, count)

    def stop(self):
        """Stop: work under way stops at its next piece and is left for
        the next start to take up."""
        self.manager.stopping = True
        for p in self.periodics:
            p.stop()
        if self.server is not None:
            rpc.stop_server(self.server)
            self.server = None
        if self.reconciler is not None:
            self.reconciler.join()
