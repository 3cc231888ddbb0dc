"""A real Manila on a one-node Ceph (tools/manila_ceph/), once per session.

It runs as root (PostgreSQL, RabbitMQ and the Ceph daemons run as their
own users or need root's view of /dev/fuse); what it needs is installed
first by ``tools/install-deps.sh manila`` (the bindep profile manila and
Manila's virtualenv; fast when everything is there).
"""

import functools
import os
import shutil
import subprocess
import sys
import tempfile
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, 'tools'))

from manila_ceph import deployment as manila_deployment  # noqa: E402
from tests.functional.share import manila_helpers  # noqa: E402


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
    return functools.partial(manila_helpers.proxy, manila)
