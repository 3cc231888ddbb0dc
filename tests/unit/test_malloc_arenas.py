"""tether.malloc_arenas: glibc's arenas capped unless the environment
chose, and every command's start (tether.cmd.common.parse_args) caps
them."""

import pathlib
import subprocess
import sys

from tether import malloc_arenas

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_capped_on_glibc_unless_the_environment_chose(monkeypatch):
    monkeypatch.delenv('MALLOC_ARENA_MAX', raising=False)
    # This process's C library is glibc (Debian): mallopt says yes.
    assert malloc_arenas.limit() is True
    monkeypatch.setenv('MALLOC_ARENA_MAX', '4')
    assert malloc_arenas.limit() is False


def test_every_command_caps_them_first():
    # In a process of its own: parse_args parses the global
    # configuration and sets up logging.
    script = '\n'.join([
        'from tether import malloc_arenas',
        'from tether.cmd import common',
        'calls = []',
        'malloc_arenas.limit = lambda: calls.append("limit")',
        'common.parse_args([], "test")',
        'print(calls)'])
    proc = subprocess.run([sys.executable, '-c', script], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.stdout.strip() == "['limit']", proc.stderr
