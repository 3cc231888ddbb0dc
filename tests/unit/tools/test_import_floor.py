"""tools/bench/import_floor.py: a process started after the recorder
hands over its modules, a forked child too; a fresh import gets exactly
the modules it is given, no optional one a library would pick up."""

import importlib.util
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[3]
_SPEC = importlib.util.spec_from_file_location(
    'import_floor', ROOT / 'tools' / 'bench' / 'import_floor.py')
import_floor = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(import_floor)

# A child that imports a module of its own, forks, and waits for its
# stdin to close; once the forked child has imported a module of its own
# too, prints its own pid and its forked child's.
CHILD = '''\
import os, sys
import colorsys
ready, done = os.pipe()
pid = os.fork()
if pid == 0:
    import fractions
    os.write(done, b'.')
    sys.stdin.read()
    os._exit(0)
os.read(ready, 1)
print(os.getpid(), pid, flush=True)
sys.stdin.read()
os.waitpid(pid, 0)
'''


def test_processes_and_forked_children_hand_over_their_modules(monkeypatch):
    # The recorder changes this process's environment: undone after.
    monkeypatch.setenv('PYTHONPATH', os.environ.get('PYTHONPATH', ''))
    monkeypatch.delenv(import_floor.ENVIRONMENT, raising=False)
    recorder = import_floor.ModuleRecorder()
    try:
        child = subprocess.Popen([sys.executable, '-c', CHILD],
                                 stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, text=True)
        try:
            parent, forked = map(int, child.stdout.readline().split())
            found = recorder.modules([parent, forked], timeout=30)
        finally:
            child.stdin.close()
            child.wait(30)
    finally:
        recorder.cleanup()
    assert set(found) == {parent, forked}
    assert 'colorsys' in found[parent]
    assert 'fractions' not in found[parent]
    assert 'fractions' in found[forked]


def test_a_fresh_import_loads_only_the_modules_named():
    alone = import_floor.fresh_import([])
    one = import_floor.fresh_import(['colorsys'])
    assert one['failed'] == 0
    assert one['modules'] == alone['modules'] + 1
    # email.charset imports email.encoders and more, not named: refused,
    # so it fails, and none of them is loaded.
    refused = import_floor.fresh_import(['email', 'email.charset'])
    assert refused['failed'] == 1
    assert refused['modules'] == alone['modules'] + 1


def test_tethers_modules():
    assert import_floor.is_tethers('tether')
    assert import_floor.is_tethers('tether.api.volume')
    assert not import_floor.is_tethers('tetherx')
