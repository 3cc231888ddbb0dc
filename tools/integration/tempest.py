"""Tempest, OpenStack's own API test suite, against the integration
deployment (deployment.py), as a cloud's operators run it.

Tempest comes from PyPI into a virtualenv of its own
(``tempest-requirements.txt``; its dependencies never touch tether's
environment). ``Tempest(deployment).run(regex)`` writes a workspace
whose ``tempest.conf`` says exactly what the deployment serves (below),
runs ``tempest run`` with dynamic credentials (Tempest makes a project
and users per test class with the deployment's admin) on two workers,
and returns what passed, failed and was skipped.

The lists in ``tools/integration/tempest/`` say which tests are not run,
each line a regular expression with its reason after ``#``:

* ``volume-skip.txt``: what tether deliberately does not serve;
* ``volume-not-yet.txt``: what tether does not serve *yet* (the
  conformance issue adds it; the file shrinks with each resource that
  lands, and is gone when the issue is done).

By hand, with a deployment running (``deployment.py --workdir DIR``)::

    python3 tools/integration/tempest.py --workdir DIR [REGEX]
"""

import argparse
import dataclasses
import os
import re
import subprocess
import sys
import time

# tools/, so that this runs as a script too.
TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if TOOLS not in sys.path:
    sys.path.insert(0, TOOLS)

from integration import identity  # noqa: E402
from integration import services  # noqa: E402
from tether.api.volume import extensions as volume_extensions  # noqa: E402
from tether.api.volume import versions as volume_versions  # noqa: E402
from tether.cmd import venvs  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
LISTS = os.path.join(HERE, 'tempest')
REQUIREMENTS = os.path.join(HERE, 'tempest-requirements.txt')
DEFAULT_VENV = os.path.join(services.REPO, '.tox', 'integration-tempest')
VOLUME_TESTS = r'^tempest\.api\.volume\.'

# What the deployment serves, for Tempest: the volume API (and the image
# API its tests upload volumes to), no compute, network or object
# storage in this run; of the volume API's optional features, none that
# tether does not serve.
CONF = """\
[DEFAULT]
log_file = {workspace}/tempest.log

[auth]
admin_username = admin
admin_password = {admin_password}
admin_project_name = admin
admin_domain_name = Default
default_credentials_domain_name = Default
use_dynamic_credentials = True

[identity]
uri_v3 = {keystone_url}
auth_version = v3
region = {region}
v3_endpoint_type = public

[identity-feature-enabled]
api_v2 = False

[service_available]
cinder = True
glance = True
nova = False
neutron = False
swift = False

[volume]
catalog_type = block-storage
endpoint_type = publicURL
min_microversion = {min_version}
max_microversion = {max_version}
storage_protocol = nfs
vendor_name = tether
build_interval = 1
build_timeout = 120

[volume-feature-enabled]
backup = False
snapshot = False
clone = False
manage_snapshot = False
manage_volume = False
extend_attached_volume = False
multi_backend = False
# What GET /extensions lists (Tempest's default, "all", would look for
# Cinder's os-hosts, which tether does not serve).
api_extensions = {api_extensions}

[image]
catalog_type = image

[compute]
# The image Tempest's volume tests make volumes of (tempest.py uploads
# it); no compute tests run.
image_ref = {image_id}
"""

# The image of the volume tests that make volumes of one: a raw disk of
# 1 MiB whose first sector says what it is, public, uploaded once per
# deployment.
IMAGE_NAME = 'tempest-volume-source'
IMAGE_BYTES = b'tether tempest image'.ljust(512, b'\0').ljust(1 << 20, b'\0')


@dataclasses.dataclass
class Result:
    """What a ``tempest run`` did: counts, the ids of the tests (or
    classes, for a failed set-up) that failed, its output, seconds."""
    passed: int
    failed: int
    skipped: int
    failures: list
    output: str
    seconds: float

    def summary(self):
        return ('tempest: %d passed, %d failed, %d skipped in %.0fs'
                % (self.passed, self.failed, self.skipped, self.seconds))


def parse(output):
    """The counts of ``tempest run``'s totals, and what failed."""
    def total(name):
        found = re.search(r'^ - %s: (\d+)$' % name, output, re.M)
        return int(found.group(1)) if found else 0
    failures = re.findall(r'^\{\d+\} (\S+(?: \([\w.]+\))?)'
                          r'(?: \[[\d.]+s\])? \.\.\. FAILED$', output, re.M)
    return total('Passed'), total('Failed'), total('Skipped'), failures


def exclude_list(workspace, names=('volume-skip.txt', 'volume-not-yet.txt')):
    """One exclude list of the repository's lists (regexes; comments,
    reasons and blank lines dropped), as ``tempest run`` reads it."""
    path = os.path.join(workspace, 'exclude.txt')
    with open(path, 'w') as out:
        for name in names:
            with open(os.path.join(LISTS, name)) as f:
                for line in f:
                    regex = line.split('#', 1)[0].strip()
                    if regex:
                        out.write(regex + '\n')
    return path


class Tempest:
    def __init__(self, deployment, venv=None, log=print):
        self.deployment = deployment
        self.venv = venv or DEFAULT_VENV
        self.log = log
        self.workspace = os.path.join(deployment.dir, 'tempest')

    def _bin(self, name):
        return os.path.join(self.venv, 'bin', name)

    def ensure_venv(self):
        return venvs.ensure(self.venv, REQUIREMENTS, 'tempest', log=self.log,
                            timeout=900)

    def image(self):
        """The id of the image for Tempest (uploaded on first use)."""
        conn = self.deployment.connection('admin')
        found = conn.image.find_image(IMAGE_NAME)
        if found is None:
            found = conn.image.create_image(
                name=IMAGE_NAME, data=IMAGE_BYTES, disk_format='raw',
                container_format='bare', visibility='public')
        return found.id

    def configure(self):
        if not os.path.isdir(self.workspace):
            # The registry of workspaces in the deployment's directory,
            # not ~/.tempest (where the name of an earlier run's
            # workspace would make this one fail).
            proc = subprocess.run(
                [self._bin('tempest'), 'init', '--name', 'tether',
                 '--workspace-path',
                 os.path.join(self.deployment.dir, 'tempest-workspaces.yaml'),
                 self.workspace],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT, text=True, timeout=120)
            if proc.returncode != 0:
                raise RuntimeError('tempest init failed:\n' + proc.stdout)
        with open(os.path.join(self.workspace, 'etc', 'tempest.conf'),
                  'w') as f:
            f.write(CONF.format(
                workspace=self.workspace,
                admin_password=self.deployment.passwords['admin'],
                keystone_url=self.deployment.keystone.url,
                region=identity.REGION,
                min_version=volume_versions.MIN_VERSION,
                max_version=volume_versions.MAX_VERSION,
                image_id=self.image(),
                api_extensions=','.join(volume_extensions.aliases())))

    def run(self, regex=VOLUME_TESTS, concurrency=2, timeout=1800):
        """``tempest run`` of the tests ``regex`` matches, less the
        lists; a Result."""
        self.ensure_venv()
        self.configure()
        argv = [self._bin('tempest'), 'run', '--regex', regex,
                '--exclude-list', exclude_list(self.workspace),
                '--concurrency', str(concurrency)]
        began = time.monotonic()
        proc = subprocess.run(argv, cwd=self.workspace,
                              stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True,
                              timeout=timeout,
                              env=dict(self.deployment.env,
                                       PATH=os.path.dirname(self._bin('x'))
                                       + os.pathsep + os.environ['PATH'],
                                       # stestr starts its workers with
                                       # $PYTHON (tox sets it to its own).
                                       PYTHON=self._bin('python')))
        passed, failed, skipped, failures = parse(proc.stdout)
        if proc.returncode != 0 and not failed:
            # Tempest itself failed (no totals): that is a failure too.
            failed, failures = 1, ['tempest run exited %d'
                                   % proc.returncode]
        return Result(passed, failed, skipped, failures, proc.stdout,
                      time.monotonic() - began)


class _Running:
    """A deployment.py started by hand in ``workdir``, read back from
    its files (for running Tempest against it from the command line)."""

    def __init__(self, workdir):
        import yaml
        self.dir = workdir
        with open(os.path.join(workdir, 'clouds.yaml')) as f:
            self.admin = yaml.safe_load(f)['clouds']['int-admin']
        auth = self.admin['auth']
        self.passwords = {'admin': auth['password']}
        self.keystone = type('Keystone', (), {'url': auth['auth_url']})
        self.env = dict(os.environ)

    def connection(self, user):
        import openstack
        assert user == 'admin'
        return openstack.connection.Connection(**self.admin)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--workdir', required=True,
                        help='The running deployment\'s scratch directory.')
    parser.add_argument('regex', nargs='?', default=VOLUME_TESTS)
    args = parser.parse_args(argv)
    tempest = Tempest(_Running(args.workdir))
    result = tempest.run(args.regex)
    out = os.path.join(tempest.workspace, 'tempest.out')
    with open(out, 'w') as f:
        f.write(result.output)
    print('the whole output: %s' % out)
    print(result.summary())
    for failure in result.failures:
        print('FAILED', failure)
    return 1 if result.failed else 0


if __name__ == '__main__':
    sys.exit(main())
