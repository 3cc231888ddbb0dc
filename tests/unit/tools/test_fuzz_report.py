"""What the fuzzing job prints of a failed run (tools/fuzz/fuzz.py):
schemathesis's failing cases rather than the pages of warnings after
them, and the aio's own lines about the 5xx it answered."""

import importlib.util
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[3]
_SPEC = importlib.util.spec_from_file_location(
    'fuzz_job', ROOT / 'tools' / 'fuzz' / 'fuzz.py')
fuzz = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(fuzz)

RULE = '=' * 30
OUTPUT = '\n'.join([
    'Schemathesis v4', 'API Operations: 130',
    '%s FAILURES %s' % (RULE, RULE),
    '_____ POST /v3/attachments _____', '1. Server error',
    "    curl -X POST -d '{\"attachment\": {}}' http://127.0.0.1/v3/x",
    '%s WARNINGS %s' % (RULE, RULE),
    'Missing test data: 49 operations ...', 'lots of it\n' * 500,
    '%s SUMMARY %s' % (RULE, RULE),
    'Failures:', '  ST101 Server error: 1',
    '%s 1 failure in 15.00s %s' % (RULE, RULE), ''])


def test_a_failed_run_shows_its_failures_and_summary():
    shown = fuzz._failures(OUTPUT)
    assert 'curl -X POST' in shown
    assert 'ST101 Server error: 1' in shown
    assert 'lots of it' not in shown


def test_a_run_without_the_section_shows_its_end():
    output = 'x' * 10000 + 'the end'
    assert fuzz._failures(output) == output[-6000:]


def test_the_aios_server_errors(tmp_path):
    log = tmp_path / 'tether-aio.log'
    log.write_text(
        '2026-11-29 05:43:56.344 31568 INFO tether.volume.manager [-] x\n'
        '2026-11-29 05:43:56.350 31568 ERROR tether.api.fault [req-1] '
        'Answering 500: The volume backend failed: y\n'
        '2026-11-29 05:43:57.000 31568 ERROR tether.api.fault [req-2] '
        'Unexpected error handling a request: KeyError\n'
        '2026-11-29 05:43:57.000 31568 ERROR tether.api.fault Traceback '
        '(most recent call last):\n'
        '2026-11-29 05:43:58.000 31568 ERROR tether.volume.ops.snapshots '
        '[-] not this one\n')
    errors = fuzz.server_errors(str(log))
    assert errors.splitlines() == log.read_text().splitlines()[1:4]
    assert fuzz.server_errors(str(tmp_path / 'absent')) == ''
