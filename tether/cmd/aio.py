"""tether-aio: every tether service in one process, on the embedded default.

SQLite files and a local share directory under one state directory, the
in-process kombu memory transport, and noauth bound to 127.0.0.1. The
image service is a real Glance, started as a child process (with its own
virtualenv, SQLite and file store under the state directory), unless
``--image-url`` names one that runs already.
"""

import os
import sys

import openstack
from oslo_config import cfg
from oslo_log import log as logging
import platformdirs
import yaml

from tether.api.compute import app as compute_app
from tether.api.volume import app as volume_app
from tether.cmd import common
from tether.cmd.glance import child as glance
from tether.compute import service as compute_service
from tether.compute import volume_client
from tether.conf import aio as conf_aio
from tether.conf import backend as conf_backend
from tether.db import migration
from tether.objects import compute as compute_objects
from tether.objects import volume as volume_objects
from tether import memory_transport
from tether import rpc
from tether.volume import compute_client
from tether.volume import service

CONF = cfg.CONF
LOG = logging.getLogger(__name__)
BACKEND = 'local'


def _default_state_dir():
    # QEMU runs as libvirt-qemu and must reach the volume files: root's
    # home (0700) is out of its reach, /var/lib is not.
    if os.geteuid() == 0:
        return '/var/lib/tether-aio'
    return platformdirs.user_data_dir('tether')


def reachable_by_others(path):
    """True if every directory above ``path`` lets others through (o+x)."""
    path = os.path.abspath(path)
    while True:
        if not os.stat(path).st_mode & 0o001:
            return False
        parent = os.path.dirname(path)
        if parent == path:
            return True
        path = parent


# [libvirt] file_backed_memory of an aio with a Manila (--share-url).
SHARE_MEMORY_MB = 4096

cli_opts = [
    cfg.StrOpt('state-dir',
               default=_default_state_dir(),
               sample_default='/var/lib/tether-aio as root, else '
                              '~/.local/share/tether',
               help='Directory holding the databases, shares and '
                    'clouds.yaml.'),
    cfg.PortOpt('volume-port', default=8776,
                help='Port of the volume API (0 picks a free one).'),
    cfg.PortOpt('compute-port', default=8774,
                help='Port of the compute API (0 picks a free one).'),
    cfg.PortOpt('image-port', default=9292,
                help='Port of the image API, Glance, that tether-aio '
                     'starts (0 picks a free one).'),
    cfg.StrOpt('image-url',
               help='The URL of a Glance that runs already (its root, '
                    'e.g. http://127.0.0.1:9292): tether-aio uses it '
                    'instead of starting one. With noauth, it must take '
                    'tether\'s tokens (<user>:<project>).'),
    cfg.StrOpt('glance-venv',
               default=glance.default_venv(),
               sample_default='glance-venv beside the default state '
                              'directory',
               help='The virtualenv of the Glance tether-aio starts (made '
                    'and filled with Glance 33 the first time, about '
                    'half a minute).'),
    cfg.StrOpt('share-url',
               help='The URL of a Manila that runs already (its root, '
                    'e.g. http://127.0.0.1:8786): servers can then have '
                    'its shares attached (compute 2.97). tether-aio starts '
                    'no Manila (tools/manila_ceph/deployment.py run starts '
                    'one with a one-node Ceph); with noauth, it must take '
                    'tether\'s tokens. Unless [libvirt] file_backed_memory '
                    'is set, it is set to %d MiB, as virtio-fs needs '
                    'memory the host can share with the guest.'
                    % SHARE_MEMORY_MB),
    cfg.StrOpt('first-image',
               help='A disk image (raw) that tether-aio uploads as the '
                    'public image "tether-tiny" unless an image of that '
                    'name exists (tools/tether-aio.sh passes the tiny '
                    'test guest, tools/guest/build-image.sh).'),
]

FIRST_IMAGE_NAME = 'tether-tiny'


def configure(state_dir):
    """Point every option at the embedded default under ``state_dir``."""
    state_dir = os.path.abspath(state_dir)
    share_dir = os.path.join(state_dir, 'shares', BACKEND)
    os.makedirs(share_dir, exist_ok=True)
    CONF.set_override('state_path', state_dir)
    CONF.set_override('auth_strategy', 'noauth')
    CONF.set_override('osapi_volume_listen', '127.0.0.1')
    CONF.set_override('osapi_compute_listen', '127.0.0.1')
    CONF.set_override('enabled_backends', [BACKEND])
    CONF.set_override('connection', 'sqlite:///%s' % os.path.join(
        state_dir, 'tether.sqlite'), group='database')
    CONF.set_override('connection', 'sqlite:///%s' % os.path.join(
        state_dir, 'compute.sqlite'), group='compute_database')
    conf_backend.register_backend_opts(CONF, BACKEND)
    if not CONF[BACKEND].nfs_shares:
        CONF.set_override('nfs_shares', [share_dir], group=BACKEND)
    share_dir = CONF[BACKEND].nfs_shares[0]
    os.chmod(share_dir, 0o755)
    if not reachable_by_others(share_dir):
        LOG.warning('QEMU (user libvirt-qemu) cannot reach the volume files '
                    'in %s: a directory above it is closed to others. '
                    'Servers will fail to start; choose a --state-dir '
                    'others can pass through (for example under '
                    '/var/lib).', share_dir)
    CONF.set_override('volume_backend_name', BACKEND, group=BACKEND)
    return state_dir


def clouds_yaml(volume_url, compute_url, image_url, share_url=None):
    """Clouds for the demo, alt and admin users, noauth tokens (and
    Manila's endpoint when there is one)."""
    clouds = {}
    for name, user, project in (('tether', 'demo', 'demo'),
                                ('tether-alt', 'alt', 'alt'),
                                ('tether-admin', 'admin', 'admin')):
        clouds[name] = {
            'auth_type': 'admin_token',
            'auth': {'token': '%s:%s' % (user, project),
                     'endpoint': volume_url},
            'block_storage_endpoint_override': volume_url,
            'block_storage_api_version': '3',
            'volume_api_version': '3',
            'compute_endpoint_override': compute_url,
            'compute_api_version': '2',
            # Glance's root: clients find /v2 by version discovery.
            'image_endpoint_override': image_url,
            'image_api_version': '2',
            'region_name': 'RegionOne',
        }
        if share_url:
            clouds[name].update({
                'shared_file_system_endpoint_override': share_url,
                'shared_file_system_api_version': '2'})
    return {'clouds': clouds}


def write_clouds_yaml(state_dir, volume_url, compute_url, image_url,
                      share_url=None):
    path = os.path.join(state_dir, 'clouds.yaml')
    tmp = path + '.tmp'
    with open(tmp, 'w') as f:
        yaml.safe_dump(clouds_yaml(volume_url, compute_url, image_url,
                                   share_url), f,
                       default_flow_style=False)
    os.replace(tmp, path)
    return path


class AllInOne:
    """The services of one tether-aio process; start() and stop()."""

    def __init__(self, state_dir, volume_port, compute_port=0,
                 image_port=0, image_url=None, glance_venv=None,
                 share_url=None):
        self.state_dir = configure(state_dir)
        self.share_url = share_url.rstrip('/') if share_url else None
        if self.share_url:
            CONF.set_override('endpoint_override', self.share_url,
                              group='share')
            if not CONF.libvirt.file_backed_memory:
                CONF.set_override('file_backed_memory', SHARE_MEMORY_MB,
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
            self.glance = glance.Child(self.state_dir, glance_venv,
                                       image_port, show_direct_url=True)
            self.image_url = self.glance.url
            if not CONF.image.allowed_direct_url_schemes:
                CONF.set_override('allowed_direct_url_schemes', ['file'],
                                  group='image')
                CONF.set_override('direct_url_file_dirs',
                                  [self.glance.store_dir], group='image')
        self.volume_service = None
        self.volume_api = None
        self.compute_service = None
        self.compute_api = None

    def start(self):
        if self.glance is not None:
            # Its virtualenv and database first: they take longest.
            self.glance.start()
        CONF.set_override('endpoint_override', self.image_url,
                          group='image')
        volume_objects.register_all()
        compute_objects.register_all()
        migration.db_sync(database='volume')
        migration.db_sync(database='compute')
        memory_transport.install()
        rpc.init(CONF, url=CONF.aio_transport_url)
        # The in-memory broker has no heartbeats to send or miss.
        CONF.set_override('heartbeat_timeout_threshold', 0,
                          group='oslo_messaging_rabbit')
        self.volume_service = service.VolumeService([BACKEND])
        self.volume_service.start()
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
        if self.glance is not None:
            self.glance.wait()
        self.clouds_path = write_clouds_yaml(self.state_dir, self.volume_url,
                                             self.compute_url, self.image_url,
                                             self.share_url)

    def upload_first_image(self, path):
        """Upload ``path`` as the public image tether-tiny, unless an
        image of that name exists; returns the image."""
        conn = openstack.connection.Connection(
            auth_type='admin_token',
            auth={'token': 'admin:admin', 'endpoint': self.image_url},
            image_endpoint_override=self.image_url, image_api_version='2')
        found = list(conn.image.images(name=FIRST_IMAGE_NAME))
        if found:
            return found[0]
        LOG.info('Uploading %s as the image %s', path, FIRST_IMAGE_NAME)
        image = conn.image.create_image(
            name=FIRST_IMAGE_NAME, filename=path, disk_format='raw',
            container_format='bare', visibility='public')
        return conn.image.get_image(image.id)

    def stop(self):
        if self.compute_api is not None:
            self.compute_api.stop()
        if self.compute_service is not None:
            self.compute_service.stop()
        if self.volume_api is not None:
            self.volume_api.stop()
        if self.volume_service is not None:
            self.volume_service.stop()
        if self.glance is not None:
            self.glance.stop()
        rpc.cleanup()


def main(argv=None):
    CONF.register_opts(conf_aio.aio_opts)
    common.parse_args(sys.argv[1:] if argv is None else argv,
                      'All of tether in one process', cli_opts=cli_opts)
    aio = AllInOne(CONF.state_dir, CONF.volume_port, CONF.compute_port,
                   image_port=CONF.image_port, image_url=CONF.image_url,
                   glance_venv=CONF.glance_venv, share_url=CONF.share_url)
    aio.start()
    if CONF.first_image:
        aio.upload_first_image(CONF.first_image)
    LOG.info('Try: OS_CLIENT_CONFIG_FILE=%s openstack --os-cloud tether '
             'volume list', aio.clouds_path)
    # The one line scripts wait for; it comes last, once all is serving.
    print('tether ready: volume=%s compute=%s image=%s'
          % (aio.volume_url, aio.compute_url, aio.image_url), flush=True)
    try:
        common.wait_for_signal()
    finally:
        aio.stop()
    return 0
