"""Cinder's own conformance suite: Tempest's volume API tests
(``tempest.api.volume``) against the deployment, under Keystone, as a
cloud's operators run them (tools/integration/tempest.py).

Every test of the tree runs except those the lists in
tools/integration/tempest/ name, each with its reason; any failure fails
the job. The counts are printed in the job's summary.
"""

import os

from tests.integration import conftest

from integration import tempest as int_tempest  # noqa: I100 - tools/


def test_tempest_volume_api(deployment):
    tempest = int_tempest.Tempest(deployment,
                                  log=lambda msg: print(msg, flush=True))
    result = tempest.run()
    conftest.TIMINGS['tempest'] = result.seconds
    conftest.TEMPEST.append(result.summary())
    with open(os.path.join(deployment.log_dir, 'tempest.out'), 'w') as f:
        f.write(result.output)
    assert result.passed > 0, result.output[-5000:]
    assert not result.failures and not result.failed, (
        '%s\nfailed:\n  %s\n\n%s' % (result.summary(),
                                     '\n  '.join(result.failures),
                                     result.output[-20000:]))
