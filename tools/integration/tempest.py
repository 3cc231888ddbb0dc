"""Tempest, OpenStack's own API test suite, against the integration
deployment (deployment.py), as a cloud's operators run it.

Tempest comes from PyPI into a virtualenv of its own
(``tempest-requirements.txt``; its dependencies never touch tether's
environment). ``Tempest(deployment).run(SUITE)`` writes a workspace
whose ``tempest.conf`` says exactly what the deployment serves
(tempest_conf.py), runs ``tempest run`` with dynamic credentials
(Tempest makes a project and users per test class with the deployment's
admin) on four workers, and returns what passed, failed and was skipped.
Two suites:

* ``VOLUME``: Cinder's tests, ``tempest.api.volume``, with a 1 MiB raw
  image to make volumes of, and no compute service in Tempest's view;
* ``COMPUTE``: Nova's tests of what tether's compute API serves (the
  groups ``COMPUTE_GROUPS`` names), whose servers are real guests: the
  tiny Linux guest's two images (tools/guest/, ``tether-tiny-a`` and
  ``-b``) as ``image_ref`` and ``image_ref_alt``, on m1.micro.

The list ``tools/integration/tempest/<suite>-skip.txt`` says which tests
are not run: what tether deliberately does not serve, each line a
regular expression with its reason after ``#``. (The conformance issues
kept a ``<suite>-not-yet.txt`` of what tether did not serve *yet*; both
emptied and went when those issues were done: a test of something tether
serves runs, and its failure fails the job.)

By hand, with a deployment running (``deployment.py --workdir DIR``)::

    python3 tools/integration/tempest.py --workdir DIR \
        [--suite compute] [REGEX]
"""

import argparse
import contextlib
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
from integration.tempest_conf import CONF  # noqa: E402
from tether.api.compute import versions as compute_versions  # noqa: E402
from tether.api.volume import extensions as volume_extensions  # noqa: E402
from tether.api.volume import versions as volume_versions  # noqa: E402
from tether.cmd import venvs  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
LISTS = os.path.join(HERE, 'tempest')
REQUIREMENTS = os.path.join(HERE, 'tempest-requirements.txt')
DEFAULT_VENV = os.path.join(services.REPO, '.tox', 'integration-tempest')
# stestr workers of one suite: the tests wait on 1 s polls (build_interval,
# an integer in Tempest) far more than they compute. On a quiet 2-core
# machine: the volume suite 136 s at 2, 81 s at 4, 74 s at 6; the compute
# suite 194 s at 2, 110 s at 4 (twice).
CONCURRENCY = 4

# The image of the volume tests that make volumes of one: a raw disk of
# 1 MiB whose first sector says what it is, public, uploaded once per
# deployment.
IMAGE_NAME = 'tempest-volume-source'
IMAGE_BYTES = b'tether tempest image'.ljust(512, b'\0').ljust(1 << 20, b'\0')
# The flavors of the compute suite (tether's own, from its first
# migration): m1.micro, the smallest the tiny guest boots in, and
# m1.small, larger (Tempest's resize tests would move between them).
FLAVOR, FLAVOR_ALT = '2', '3'


@dataclasses.dataclass(frozen=True)
class Suite:
    """A run of Tempest: the tests ``regex`` matches, less those of
    ``<name>-skip.txt``."""
    name: str
    regex: str

    @property
    def lists(self):
        return ('%s-skip.txt' % self.name,)


VOLUME = Suite('volume', r'^tempest\.api\.volume\.')
# The groups of Nova's tests for what tether's compute API serves (the
# Nova conformance issue names them).
COMPUTE_GROUPS = (
    r'volumes\.', r'images\.', r'servers\.test_server_actions\.',
    r'servers\.test_servers\.', r'servers\.test_server_metadata\.',
    r'servers\.test_server_rescue',
    r'servers\.test_instance_actions\.',
    r'admin\.test_server_external_events\.', r'flavors\.',
    r'admin\.test_volume', r'admin\.test_hypervisor', r'test_versions\.')
COMPUTE = Suite('compute', r'^tempest\.api\.compute\.(%s)'
                % '|'.join(COMPUTE_GROUPS))
SUITES = {suite.name: suite for suite in (VOLUME, COMPUTE)}


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


def exclude_list(workspace, suite):
    """One exclude list of the suite's lists (regexes; comments, reasons
    and blank lines dropped), as ``tempest run`` reads it."""
    path = os.path.join(workspace, 'exclude-%s.txt' % suite.name)
    with open(path, 'w') as out:
        for name in suite.lists:
            with open(os.path.join(LISTS, name)) as f:
                for line in f:
                    regex = line.split('#', 1)[0].strip()
                    if regex:
                        out.write(regex + '\n')
    return path


class Tempest:
    """``guest_images``: {marker: path of a raw image} of the tiny
    guest (tests/guest_images.py), for the compute suite."""

    def __init__(self, deployment, venv=None, log=print, guest_images=None):
        self.deployment = deployment
        self.venv = venv or DEFAULT_VENV
        self.log = log
        self.guest_images = guest_images or {}
        self.workspace = os.path.join(deployment.dir, 'tempest')

    def _bin(self, name):
        return os.path.join(self.venv, 'bin', name)

    def ensure_venv(self):
        return venvs.ensure(self.venv, REQUIREMENTS, 'tempest', log=self.log,
                            timeout=900)

    def _image(self, name, upload):
        """The id of the public image ``name``, uploaded (``upload()``
        opens its data) on first use."""
        conn = self.deployment.connection('admin')
        found = conn.image.find_image(name)
        if found is None:
            with upload() as data:
                found = conn.image.create_image(
                    name=name, data=data, disk_format='raw',
                    container_format='bare', visibility='public')
        return found.id

    def images(self, suite):
        """``image_ref`` and ``image_ref_alt`` of ``suite``."""
        if suite is not COMPUTE:
            image = self._image(IMAGE_NAME,
                                lambda: contextlib.nullcontext(IMAGE_BYTES))
            return image, image
        if len(self.guest_images) < 2:
            raise RuntimeError('the compute suite boots the tiny guest: '
                               'give Tempest guest_images (two markers)')
        return tuple(
            self._image('tempest-' + marker,
                        lambda path=path: open(path, 'rb'))
            for marker, path in sorted(self.guest_images.items())[:2])

    def configure(self, suite):
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
        image_ref, image_ref_alt = self.images(suite)
        with open(os.path.join(self.workspace, 'etc', 'tempest.conf'),
                  'w') as f:
            f.write(CONF.format(
                workspace=self.workspace,
                admin_password=self.deployment.passwords['admin'],
                keystone_url=self.deployment.keystone.url,
                region=identity.REGION,
                nova=suite is COMPUTE,
                volume_min_version=volume_versions.MIN_VERSION,
                volume_max_version=volume_versions.MAX_VERSION,
                compute_min_version=compute_versions.MIN_VERSION,
                compute_max_version=compute_versions.MAX_VERSION,
                image_ref=image_ref, image_ref_alt=image_ref_alt,
                flavor_ref=FLAVOR, flavor_ref_alt=FLAVOR_ALT,
                api_extensions=','.join(volume_extensions.aliases())))

    def run(self, suite=VOLUME, regex=None, concurrency=None, timeout=1800):
        """``tempest run`` of the suite's tests (or those of them
        ``regex`` matches), less its lists; a Result."""
        self.ensure_venv()
        self.configure(suite)
        argv = [self._bin('tempest'), 'run', '--regex', regex or suite.regex,
                '--exclude-list', exclude_list(self.workspace, suite),
                '--concurrency', str(concurrency or CONCURRENCY)]
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
    parser.add_argument('--suite', choices=sorted(SUITES), default='volume')
    parser.add_argument('--concurrency', type=int, default=CONCURRENCY,
                        help='Tempest workers (default %(default)s).')
    parser.add_argument('regex', nargs='?',
                        help='Only the tests of the suite this matches.')
    args = parser.parse_args(argv)
    suite = SUITES[args.suite]
    guest_images = None
    if suite is COMPUTE:
        # The tiny guest's images, as the tests build them (cached).
        if services.REPO not in sys.path:
            sys.path.insert(0, services.REPO)
        from tests import guest_images as guest_image_builder
        guest_images = guest_image_builder.images()
    tempest = Tempest(_Running(args.workdir), guest_images=guest_images)
    result = tempest.run(suite, args.regex, concurrency=args.concurrency)
    out = os.path.join(tempest.workspace, 'tempest-%s.out' % suite.name)
    with open(out, 'w') as f:
        f.write(result.output)
    print('the whole output: %s' % out)
    print(result.summary())
    for failure in result.failures:
        print('FAILED', failure)
    return 1 if result.failed else 0


if __name__ == '__main__':
    sys.exit(main())
