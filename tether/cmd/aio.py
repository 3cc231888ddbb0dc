"""tether-aio: every tether service on one host, on the embedded default.

SQLite files and a local share directory under one state directory, the
in-process kombu memory transport, and noauth bound to 127.0.0.1. The
managers run in the main process. The APIs run in ``--api-workers``
processes of their own (:mod:`tether.cmd.aio_workers`), which reach the
managers' memory broker over a Unix socket
(:mod:`tether.socket_transport`); with ``--api-workers 0`` they run in the
main process too. The image service is a real Glance, started as a child
process (with its own virtualenv, SQLite and file store under the state
directory), unless ``--image-url`` names one that runs already. The
backup service (tether-backup) runs in the main process too; its
backups go to ``backup/`` of the state directory. With
``--keystone``, a real Keystone runs beside them and replaces noauth
(:mod:`tether.cmd.aio_keystone`).
"""

import os
import sys

import openstack
from oslo_config import cfg
from oslo_log import log as logging

from tether.api.compute import app as compute_app
from tether.api.volume import app as volume_app
from tether.cmd import aio_clouds
from tether.cmd import aio_config
from tether.cmd import aio_keystone
from tether.cmd import aio_workers
from tether.cmd import common
from tether.cmd.glance import child as glance
from tether.compute import service as compute_service
from tether.compute import volume_client
from tether.conf import aio as conf_aio
from tether.db import migration
from tether.objects import compute as compute_objects
from tether.objects import volume as volume_objects
from tether import memory_transport
from tether import rpc
from tether import socket_transport
from tether.volume.backup import service as backup_service
from tether.volume import compute_client
from tether.volume import service

CONF = cfg.CONF
LOG = logging.getLogger(__name__)
BACKEND = aio_config.BACKEND
cli_opts = aio_config.cli_opts


FIRST_IMAGE_NAME = 'tether-tiny'


class AllInOne:
    """The services of one tether-aio process; start() and stop()."""

    def __init__(self, state_dir, volume_port, compute_port=0,
                 image_port=0, image_url=None, glance_venv=None,
                 share_url=None, api_workers=0, argv=(), keystone=False,
                 keystone_port=0, keystone_venv=None):
        """``api_workers`` processes serve the APIs (0: this one); they
        are started with ``argv``, tether-aio's arguments, and read the
        configuration files these name. With ``keystone``, a Keystone
        runs beside (tether.cmd.aio_keystone)."""
        self.identity = None
        if keystone:
            self.identity = aio_keystone.Identity(
                os.path.abspath(state_dir), keystone_venv, keystone_port)
        self.state_dir = aio_config.configure(state_dir,
                                              keystone=bool(keystone))
        self.api_workers = api_workers
        self.argv = argv
        self.workers = None
        self.broker = None
        self.share_url = share_url.rstrip('/') if share_url else None
        if self.share_url:
            CONF.set_override('endpoint_override', self.share_url,
                              group='share')
            if not CONF.libvirt.file_backed_memory:
                CONF.set_override('file_backed_memory',
                                  aio_config.SHARE_MEMORY_MB,
                                  group='libvirt')
        self.volume_port = volume_port
        self.compute_port = compute_port
        self.glance = None
        if image_url:
            self.image_url = image_url.rstrip('/')
        else:
            # Glance beside tether on one host: tether reads an image's
            # data from Glance's file store (checked against its hash as
            # a download is) rather than through Glance's API, unless the
            # operator said otherwise.
            self.glance = glance.Child(
                self.state_dir, glance_venv, image_port, show_direct_url=True,
                **({'auth': 'keystone',
                    'keystone': self.identity.glance_keystone()}
                   if self.identity else {}))
            self.image_url = self.glance.url
            if not CONF.image.allowed_direct_url_schemes:
                CONF.set_override('allowed_direct_url_schemes', ['file'],
                                  group='image')
                CONF.set_override('direct_url_file_dirs',
                                  [self.glance.store_dir], group='image')
        self.volume_service = None
        self.backup_service = None
        self.volume_api = None
        self.compute_service = None
        self.compute_api = None

    def start(self):
        if self.identity is not None:
            # Its virtualenv, database and keys in a thread of their own.
            self.identity.start()
        if self.glance is not None:
            # Its virtualenv and database first: they take longest.
            self.glance.start()
        volume_objects.register_all()
        compute_objects.register_all()
        migration.db_sync(database='volume')
        migration.db_sync(database='compute')
        memory_transport.install()
        rpc.init(CONF, url=CONF.aio_transport_url)
        aio_config.no_heartbeats()
        if self.api_workers:
            self._start_with_workers()
        else:
            self._start_in_process()
        if self.identity is not None:
            self.identity.wait()
            self.identity.register(self.served())
        if self.glance is not None:
            self.glance.wait()
        self.clouds_path = aio_clouds.write(
            self.state_dir, self.served(),
            self.identity.clouds() if self.identity else None)

    def served(self):
        """The service types this aio serves, and their URLs."""
        return aio_clouds.endpoints(
            self.volume_url, self.compute_url, self.image_url,
            self.share_url, self.identity.url if self.identity else None)

    def _start_in_process(self):
        # Each API's URL is known once it listens; the compute service
        # needs the volume API's from its start.
        CONF.set_override('endpoint_override', self.image_url,
                          group='image')
        self.volume_service = service.VolumeService([BACKEND])
        self.volume_service.start()
        self.backup_service = backup_service.BackupService()
        self.backup_service.start()
        self.volume_api = common.WSGIServer(
            'volume-api', volume_app.build(CONF), '127.0.0.1',
            self.volume_port, CONF.osapi_volume_threads)
        self.volume_api.start()
        self.volume_url = 'http://127.0.0.1:%d/v3' % self.volume_api.port
        CONF.set_override('endpoint_override', self.volume_url,
                          group='volume')
        volume_client.PEER.reset()
        self.compute_service = compute_service.ComputeService()
        self.compute_service.start()
        self.compute_api = common.WSGIServer(
            'compute-api', compute_app.build(CONF), '127.0.0.1',
            self.compute_port, CONF.osapi_compute_threads)
        self.compute_api.start()
        self.compute_url = 'http://127.0.0.1:%d/v2.1' % self.compute_api.port
        CONF.set_override('endpoint_override', self.compute_url,
                          group='compute')
        compute_client.PEER.reset()

    def _start_with_workers(self):
        broker_path = os.path.join(self.state_dir, 'aio-broker.sock')
        self.broker = socket_transport.Broker(broker_path)
        self.broker.start()
        self.workers = aio_workers.Workers(self.api_workers, self.argv, {
            'broker': broker_path, 'image_url': self.image_url,
            'share_url': self.share_url})
        # The sockets listen before anything starts, so every URL is
        # known; connections wait in their backlog until a worker serves.
        self.volume_url = 'http://127.0.0.1:%d/v3' % self.workers.listen(
            'volume', '127.0.0.1', self.volume_port)
        self.compute_url = 'http://127.0.0.1:%d/v2.1' % self.workers.listen(
            'compute', '127.0.0.1', self.compute_port)
        aio_config.set_endpoints(self.image_url, self.volume_url,
                                 self.compute_url, self.share_url)
        self.workers.settings.update(volume_url=self.volume_url,
                                     compute_url=self.compute_url)
        self.volume_service = service.VolumeService([BACKEND])
        self.volume_service.start()
        self.backup_service = backup_service.BackupService()
        self.backup_service.start()
        self.compute_service = compute_service.ComputeService()
        self.compute_service.start()
        self.workers.start()

    def upload_first_image(self, path):
        """Upload ``path`` as the public image tether-tiny, unless an
        image of that name exists; returns the image."""
        if self.identity is not None:
            conn = openstack.connection.Connection(
                **self.identity.admin_cloud())
        else:
            conn = openstack.connection.Connection(
                auth_type='admin_token',
                auth={'token': 'admin:admin', 'endpoint': self.image_url},
                image_endpoint_override=self.image_url,
                image_api_version='2')
        found = list(conn.image.images(name=FIRST_IMAGE_NAME))
        if found:
            return found[0]
        LOG.info('Uploading %s as the image %s', path, FIRST_IMAGE_NAME)
        image = conn.image.create_image(
            name=FIRST_IMAGE_NAME, filename=path, disk_format='raw',
            container_format='bare', visibility='public')
        return conn.image.get_image(image.id)

    def stop(self):
        if self.workers is not None:
            self.workers.stop()
        if self.compute_api is not None:
            self.compute_api.stop()
        if self.compute_service is not None:
            self.compute_service.stop()
        if self.volume_api is not None:
            self.volume_api.stop()
        if self.backup_service is not None:
            self.backup_service.stop()
        if self.volume_service is not None:
            self.volume_service.stop()
        if self.glance is not None:
            self.glance.stop()
        if self.broker is not None:
            self.broker.stop()
        if self.identity is not None:
            self.identity.stop()
        rpc.cleanup()


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    CONF.register_opts(conf_aio.aio_opts)
    common.parse_args(argv, 'All of tether on one host', cli_opts=cli_opts)
    aio = AllInOne(CONF.state_dir, CONF.volume_port, CONF.compute_port,
                   image_port=CONF.image_port, image_url=CONF.image_url,
                   glance_venv=CONF.glance_venv, share_url=CONF.share_url,
                   api_workers=CONF.api_workers, argv=argv,
                   keystone=CONF.keystone, keystone_port=CONF.keystone_port,
                   keystone_venv=CONF.keystone_venv)
    aio.start()
    if CONF.first_image:
        aio.upload_first_image(CONF.first_image)
    LOG.info('Try: OS_CLIENT_CONFIG_FILE=%s openstack --os-cloud tether '
             'volume list', aio.clouds_path)
    # The one line scripts wait for; it comes last, once all is serving
    # and a signal stops it cleanly.
    stop = common.stop_on_signals()
    print('tether ready: volume=%s compute=%s image=%s%s'
          % (aio.volume_url, aio.compute_url, aio.image_url,
             ' identity=%s' % aio.identity.url if aio.identity else ''),
          flush=True)
    try:
        common.wait_for_signal(stop)
    finally:
        aio.stop()
    return 0
