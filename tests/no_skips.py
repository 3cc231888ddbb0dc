"""With ``TETHER_TESTS_NO_SKIPS=1`` (.ci/run sets it: tools/run-tests.sh
installs everything the tests need first), a test or a test module that skips
fails instead: a CI run cannot pass while what a test was there to prove
(in a real guest, with libvirt, with Manila) did not run. Without it, a
developer's machine that lacks a part skips, saying what to install."""

import os

import pytest

ENV = 'TETHER_TESTS_NO_SKIPS'


def _fail_skipped(report):
    if not report.skipped or hasattr(report, 'wasxfail') or \
            os.environ.get(ENV) != '1':
        return
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    report.outcome = 'failed'
    report.longrepr = ('%s=1: nothing may be skipped here, and this was: %s'
                       % (ENV, reason))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    _fail_skipped(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    outcome = yield
    _fail_skipped(outcome.get_result())
