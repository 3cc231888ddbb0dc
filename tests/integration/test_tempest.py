"""OpenStack's own conformance suites against the deployment, under
Keystone, as a cloud's operators run them (tools/integration/tempest.py):
Cinder's, Tempest's volume API tests (``tempest.api.volume``), and
Nova's, Tempest's compute API tests of what tether serves, whose servers
are real guests of the tiny Linux image.

Every test of each suite runs except those its skip list in
tools/integration/tempest/ names (what tether deliberately does not
serve), each with its reason; any failure fails the job. The counts
are printed in the job's summary.
"""

import os

from tests.integration import conftest

from integration import tempest as int_tempest  # noqa: I100 - tools/


def _run(deployment, suite, guest_images=None):
    tempest = int_tempest.Tempest(deployment,
                                  log=lambda msg: print(msg, flush=True),
                                  guest_images=guest_images)
    result = tempest.run(suite)
    conftest.TIMINGS['tempest-%s' % suite.name] = result.seconds
    conftest.TEMPEST.append('%s: %s' % (suite.name, result.summary()))
    with open(os.path.join(deployment.log_dir,
                           'tempest-%s.out' % suite.name), 'w') as f:
        f.write(result.output)
    assert result.passed > 0, result.output[-5000:]
    assert not result.failures and not result.failed, (
        '%s\nfailed:\n  %s\n\n%s' % (result.summary(),
                                     '\n  '.join(result.failures),
                                     result.output[-20000:]))


def test_tempest_volume_api(deployment):
    _run(deployment, int_tempest.VOLUME)


def test_tempest_compute_api(deployment, guest_images):
    _run(deployment, int_tempest.COMPUTE, guest_images)
