"""The ``openstack`` CLI (python-openstackclient) against the aio, as a
user runs it: a clouds.yaml of the aio's endpoints and a noauth token.
Each command runs in a process of its own, forked from a server that has
imported the CLI once (tests/openstack_cli.py).
"""

import json
import os

import yaml

from tests.openstack_cli import openstack_run
from tether.cmd import aio_clouds


class CLI:
    """``openstack --os-cloud t ...`` as ``user`` of ``project``."""

    def __init__(self, aio, directory, user, project, roles=None):
        token = '%s:%s' % (user, project)
        if roles:
            token += ':' + ','.join(roles)
        # The cloud of tether-aio's clouds.yaml, for this user.
        clouds = {'clouds': {'t': aio_clouds.noauth_cloud(
            token, aio.impl.served())}}
        # One file per user: two CLIs of one test do not share a token.
        path = os.path.join(str(directory),
                            'clouds-%s-%s.yaml' % (user, project))
        with open(path, 'w') as f:
            yaml.safe_dump(clouds, f)
        self.env = dict(os.environ, OS_CLIENT_CONFIG_FILE=path)

    def run(self, *args, timeout=300):
        """The command's stdout; AssertionError with its stderr if it
        fails."""
        proc = openstack_run(['--os-cloud', 't'] + list(args),
                             env=self.env, timeout=timeout)
        assert proc.returncode == 0, (args, proc.stdout, proc.stderr)
        return proc.stdout

    def json(self, *args, timeout=300):
        """``args`` with ``-f json``, parsed. What ``--wait`` prints
        before the document (its progress, ``Complete``) is skipped."""
        out = self.run(*args, '-f', 'json', timeout=timeout)
        lines = out.replace('\r', '\n').splitlines(keepends=True)
        for i, line in enumerate(lines):
            if line.startswith(('{', '[')):
                return json.loads(''.join(lines[i:]))
        raise AssertionError('no JSON in %r' % out)
