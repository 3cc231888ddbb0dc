"""The configuration of tether-aio that its main process and its API
workers share: the command line, and the options it points at the
embedded default. (A module of its own, so that a worker does not import
the managers.)"""

import os

from oslo_config import cfg
from oslo_log import log as logging
import platformdirs

from tether.cmd import aio_keystone
from tether.cmd import aio_workers
from tether.cmd.glance import child as glance
from tether.compute import volume_client
from tether.conf import backend as conf_backend
from tether import file_access
from tether.volume import compute_client

CONF = cfg.CONF
LOG = logging.getLogger(__name__)
BACKEND = 'local'


def _default_state_dir():
    # QEMU runs as libvirt-qemu and must reach the volume files: root's
    # home (0700) is out of its reach, /var/lib is not.
    if os.geteuid() == 0:
        return '/var/lib/tether-aio'
    return platformdirs.user_data_dir('tether')


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
    cfg.IntOpt('api-workers', default=aio_workers.default_count(),
               min=0, sample_default='the number of CPUs, at most 4',
               help='Processes serving the volume and compute APIs (both '
                    'in each). 0 serves them in the main process, beside '
                    'the managers, which then share one core.'),
    cfg.BoolOpt('keystone', default=False,
                help='Run a real Keystone beside tether-aio (from PyPI, in '
                     'a virtualenv of its own, on SQLite under the state '
                     'directory), with the users of clouds.yaml (demo, alt, '
                     'admin) and a catalog of every service; the APIs and '
                     'Glance check its tokens, and clouds.yaml has password '
                     'clouds. Without it, noauth (see README.rst for what '
                     'each costs at start).'),
    cfg.PortOpt('keystone-port', default=5000,
                help='Port of the Keystone of --keystone (0 picks a free '
                     'one).'),
    cfg.StrOpt('keystone-venv',
               sample_default='keystone-venv beside the default state '
                              'directory',
               help='The virtualenv of the Keystone of --keystone (made '
                    'and filled with Keystone 30 the first time, about a '
                    'minute).'),
    cfg.StrOpt('first-image',
               help='A disk image (raw) that tether-aio uploads as the '
                    'public image "tether-tiny" unless an image of that '
                    'name exists (tools/tether-aio.sh passes the tiny '
                    'test guest, tools/guest/build-image.sh).'),
]


def configure(state_dir, quiet=False, keystone=False):
    """Point every option at the embedded default under ``state_dir``
    (``quiet``: without the warnings, which the main process gave;
    ``keystone``: behind the aio's Keystone, whose settings are in the
    state directory, rather than noauth)."""
    state_dir = os.path.abspath(state_dir)
    share_dir = os.path.join(state_dir, 'shares', BACKEND)
    os.makedirs(share_dir, exist_ok=True)
    CONF.set_override('state_path', state_dir)
    if keystone:
        aio_keystone.configure(state_dir)
    else:
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
    if not quiet and not file_access.reachable_by_others(share_dir):
        LOG.warning('QEMU (user libvirt-qemu) cannot reach the volume files '
                    'in %s: a directory above it is closed to others. '
                    'Servers will fail to start; choose a --state-dir '
                    'others can pass through (for example under '
                    '/var/lib).', share_dir)
    CONF.set_override('volume_backend_name', BACKEND, group=BACKEND)
    return state_dir


def set_endpoints(image_url, volume_url, compute_url, share_url=None):
    """Where each service reaches the others (the APIs of this aio)."""
    CONF.set_override('endpoint_override', image_url, group='image')
    CONF.set_override('endpoint_override', volume_url, group='volume')
    CONF.set_override('endpoint_override', compute_url, group='compute')
    if share_url:
        CONF.set_override('endpoint_override', share_url, group='share')
    volume_client.PEER.reset()
    compute_client.PEER.reset()


def no_heartbeats():
    """The aio's brokers have no heartbeats to send or miss."""
    CONF.set_override('heartbeat_timeout_threshold', 0,
                      group='oslo_messaging_rabbit')
