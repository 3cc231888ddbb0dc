"""A real Manila on a one-node Ceph (tools/manila_ceph/), once per session.

It runs as root (PostgreSQL, RabbitMQ and the Ceph daemons run as their
own users or need root's view of /dev/fuse); what it needs is installed
first by ``tools/install-deps.sh manila`` (the bindep profile manila and
Manila's virtualenv; fast when everything is there).
"""

import os
import shutil
import subprocess
import sys
import tempfile
import time

from keystoneauth1 import session as ks_session
from keystoneauth1 import token_endpoint
import openstack
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, 'tools'))

from manila_ceph import deployment as manila_deployment  # noqa: E402


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
    def proxy(token):
        # The root, not /v2, and the token a header of the session: the
        # version discovery GET carries no token otherwise, and noauth
        # answers a request without one with an empty 204, which leaves
        # openstacksdk without the microversions the server serves.
        sess = ks_session.Session(
            auth=token_endpoint.Token(manila.endpoint, token),
            additional_headers={'X-Auth-Token': token})
        # Retries, as tether's own clients make ([share] http_retries):
        # gunicorn closes a kept-alive connection idle for 2 s, and a
        # request sent on it as it closes fails with RemoteDisconnected.
        conn = openstack.connection.Connection(
            session=sess, shared_file_system_api_version='2.82',
            shared_file_system_endpoint_override=manila.endpoint,
            connect_retries=3)
        return conn.shared_file_system
    return proxy
