"""tests/no_skips.py: with TETHER_TESTS_NO_SKIPS=1 a test that skips and
a module that skips fail the run; without it they skip. Shown on a
planted skip of each kind, in a pytest of its own."""

import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]

PLANTED = {
    'test_skips.py': ('import pytest\n\n\n'
                      'def test_skips():\n'
                      '    pytest.skip("no tool here")\n\n\n'
                      'def test_runs():\n'
                      '    pass\n'),
    'test_module_skips.py': ('import pytest\n'
                             'pytest.importorskip("no_such_module_here")\n'),
}


def _pytest(tmp_path, name, no_skips):
    (tmp_path / name).write_text(PLANTED[name])
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop('TETHER_TESTS_NO_SKIPS', None)
    if no_skips:
        env['TETHER_TESTS_NO_SKIPS'] = '1'
    return subprocess.run(
        [sys.executable, '-m', 'pytest', '-q', '-p', 'tests.no_skips',
         '-p', 'no:cacheprovider', '-c', os.devnull, '--rootdir',
         str(tmp_path), str(tmp_path / name)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)


def test_a_skipped_test_fails_the_run(tmp_path):
    proc = _pytest(tmp_path, 'test_skips.py', no_skips=True)
    assert proc.returncode == 1, proc.stdout
    assert '1 failed, 1 passed' in proc.stdout
    assert ('TETHER_TESTS_NO_SKIPS=1: nothing may be skipped here, and '
            'this was: Skipped: no tool here') in proc.stdout


def test_a_skipped_module_fails_the_run(tmp_path):
    proc = _pytest(tmp_path, 'test_module_skips.py', no_skips=True)
    assert proc.returncode != 0, proc.stdout
    assert "could not import 'no_such_module_here'" in proc.stdout


def test_without_it_they_skip(tmp_path):
    for name in PLANTED:
        proc = _pytest(tmp_path, name, no_skips=False)
        assert proc.returncode in (0, 5), proc.stdout
        assert 'skipped' in proc.stdout
