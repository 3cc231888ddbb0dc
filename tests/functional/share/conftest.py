"""A real Manila on a one-node Ceph (tools/manila_ceph/), once per session.

It runs as root (PostgreSQL, RabbitMQ and the Ceph daemons run as their
own users or need root's view of /dev/fuse); what it needs is installed
first by ``tools/install-deps.sh manila`` (the bindep profile manila and
Manila's virtualenv; fast when everything is there). The tests of
servers' shares take the aio pointed at it (``shares_aio``) and a user's
shares (``shares``).
"""

import functools
import os
import shutil
import subprocess
import sys
import tempfile
import time

from oslo_config import cfg
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, 'tools'))

from manila_ceph import deployment as manila_deployment  # noqa: E402
from tests.functional import helpers  # noqa: E402
from tests.functional.share import manila_helpers as mh  # noqa: E402
from tether.compute import share_client  # noqa: E402
from tether.db.compute import service as db_compute_services  # noqa: E402

CONF = cfg.CONF


def _cannot_run():
    """Why this machine cannot run the deployment, or None."""
    if os.geteuid() != 0:
        return ('the Manila deployment runs as root (PostgreSQL, RabbitMQ '
                'and Ceph daemons, ceph-fuse mounts)')
    if not os.path.exists('/dev/fuse'):
        return 'no /dev/fuse: ceph-fuse cannot mount a CephFS share'
    return None


@pytest.fixture(scope='session')
def manila():
    reason = _cannot_run()
    if reason:
        pytest.skip(reason)
    began = time.monotonic()
    proc = subprocess.run([os.path.join(ROOT, 'tools', 'install-deps.sh'),
                           'manila'], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0:
        pytest.fail('tools/install-deps.sh manila failed:\n'
                    + proc.stdout[-3000:])
    installed = time.monotonic() - began
    path = tempfile.mkdtemp(prefix='tether-manila-')
    os.chmod(path, 0o755)   # PostgreSQL and RabbitMQ run as their users
    dep = manila_deployment.Deployment(path, log=lambda msg: None)
    try:
        dep.start()
        sys.stderr.write('\nmanila: install-deps %.1fs, start %s\n'
                         % (installed, dep.timings))
        yield dep
    finally:
        dep.stop()
        shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def sdk(manila):
    """sdk(token) -> openstacksdk's shared file system proxy at 2.82,
    acting with a noauthv2 token ``<user>:<project>`` (resource locks
    need both UUID-shaped: their response schemas say so)."""
    return functools.partial(mh.proxy, manila)


@pytest.fixture(scope='module')
def shares_aio(aio, manila):
    """The aio pointed at the real Manila, with file-backed memory; the
    Manila proxy of the service's own token (which owns the locks)."""
    service_token = mh.token()
    overrides = [('endpoint_override', manila.endpoint, 'share'),
                 ('noauth_token', service_token, 'share'),
                 ('file_backed_memory', 1024, 'libvirt')]
    with mh.overridden(CONF, overrides):
        share_client.PEER.reset()
        ctx = helpers.admin_context()
        hosts = functools.partial(db_compute_services.get_all, ctx,
                                  binary='tether-compute')
        mh.wait(lambda: all('COMPUTE_MEM_BACKING_FILE' in (s.traits or ())
                            for s in hosts()),
                30, 'the host to report file-backed memory')
        yield mh.proxy(manila, service_token)
    share_client.PEER.reset()


@pytest.fixture
def shares(shares_aio, manila):
    """Shares of a Manila user of its own; deleted after the test with
    the service's token (the locks of tether's rules are the
    service's)."""
    made = mh.Shares(mh.proxy(manila))
    yield made
    made.sfs, user_sfs = shares_aio, made.sfs
    made.delete_all()
    del user_sfs
