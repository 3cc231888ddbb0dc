"""A running tether-volume: a manager and an RPC server per backend, and
their heartbeats."""

from oslo_config import cfg
from oslo_log import log as logging
import oslo_messaging as messaging

from tether.conf import backend as conf_backend
from tether import context as t_context
from tether.db.volume import quota as db_quotas
from tether.db.volume import service as db_services
from tether.db.volume import volume as db_volumes
from tether.objects import base as objects_base
from tether.objects import fields
from tether import periodic
from tether import rpc
from tether.volume import manager as volume_manager
from tether.volume import messages
from tether.volume import rpcapi as volume_rpcapi

CONF = cfg.CONF
LOG = logging.getLogger(__name__)


class Backend:
    """One ``host@backend``: its manager, RPC server and service record."""

    def __init__(self, name):
        self.name = name
        self.host = '%s@%s' % (CONF.host, name)
        self.manager = volume_manager.VolumeManager(
            self.host, conf_backend.register_backend_opts(CONF, name))
        self.server = None
        self.service_id = None

    def start(self, context):
        self.manager.init_host(context)
        self.service_id = db_services.register(
            context, self.host, volume_manager.BINARY, volume_rpcapi.TOPIC,
            CONF.storage_availability_zone,
            volume_rpcapi.VolumeAPI.RPC_API_VERSION,
            objects_base.TetherObjectRegistry.obj_classes()['Volume'][0]
            .VERSION)
        self.report(context)
        target = messaging.Target(topic=volume_rpcapi.TOPIC, server=self.host)
        self.server = rpc.get_server(target, [self.manager])
        self.server.start()
        LOG.info('Volume backend %s started', self.host)

    def report(self, context):
        db_services.heartbeat(context, self.service_id,
                              self.manager.get_capabilities(context))

    def stop(self):
        self.manager.stopping = True
        if self.server is not None:
            rpc.stop_server(self.server)
            self.server = None


class VolumeService:
    """Everything ``tether-volume`` runs."""

    def __init__(self, backends=None):
        names = backends or CONF.enabled_backends
        if not names:
            raise SystemExit('tether-volume: [DEFAULT]enabled_backends '
                             'names no backend')
        self.backends = [Backend(n) for n in names]
        self.periodics = []
        self.context = t_context.get_admin_context()

    def start(self):
        for backend in self.backends:
            backend.start(self.context)
        self.periodics = [
            periodic.Periodic('heartbeat', CONF.report_interval,
                              self._heartbeat),
            periodic.Periodic('reservation-expiry',
                              CONF.reservation_clean_interval,
                              self._expire_reservations),
            periodic.Periodic('message-expiry',
                              CONF.message_reap_interval,
                              self._reap_messages),
            # A few checks per timeout: an overdue extend waits at most a
            # quarter of the timeout (or a minute) more.
            periodic.Periodic('overdue-extends',
                              max(1, min(60,
                                         CONF.extend_completion_timeout / 4)),
                              self._settle_overdue_extends),
        ]
        if CONF.volume_operation_timeout:
            self.periodics.append(periodic.Periodic(
                'stale-operations',
                max(1, min(60, CONF.volume_operation_timeout / 4)),
                self._redrive_stale_operations))
        for p in self.periodics:
            p.start()

    def _heartbeat(self):
        for backend in self.backends:
            backend.report(self.context)

    def _settle_overdue_extends(self):
        for backend in self.backends:
            count = backend.manager.settle_overdue_extends(self.context)
            if count:
                LOG.warning('%s: settled %d overdue extends', backend.host,
                            count)

    def _redrive_stale_operations(self):
        for backend in self.backends:
            count = backend.manager.redrive_stale_operations(self.context)
            if count:
                LOG.warning('%s: took up %d stale operations (creates, '
                            'deletes, uploads, re-images)', backend.host,
                            count)

    def _reap_messages(self):
        count = messages.reap(self.context)
        if count:
            LOG.info('Deleted %d expired user messages', count)

    def _expire_reservations(self):
        in_flight = [v.id for v in db_volumes.get_all(
            self.context, filters={'status': [fields.VolumeStatus.EXTENDING,
                                              fields.VolumeStatus.CREATING,
                                              fields.VolumeStatus.DELETING]})]
        expired = db_quotas.expire(self.context, in_flight)
        if expired:
            LOG.info('Rolled back %d expired quota reservations', expired)

    def stop(self):
        for p in self.periodics:
            p.stop()
        for backend in self.backends:
            backend.stop()
