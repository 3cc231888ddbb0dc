"""tether-aio says ``tether ready`` only once a SIGTERM stops it
cleanly: a script that stops it the moment it reads the line gets exit
status 0 and a full stop, not a process killed by the signal.

The services are a stand-in (their start and stop are what the other
tests run for real); the command's main, its signal handling and its
ready line are tether-aio's own. The signal comes from inside the
process, as the line is written: the one moment a script's could."""

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[3]

SCRIPT = '''
import os, signal, sys
from tether.cmd import aio


class StandIn:
    volume_url, compute_url, image_url = 'v', 'c', 'i'
    identity, clouds_path = None, 'clouds.yaml'

    def __init__(self, *args, **kwargs):
        pass

    def start(self):
        pass

    def stop(self):
        sys.__stdout__.write('stopped\\n')


class SignalOnReady:
    """stdout that sends SIGTERM to this process once the ready line
    is written, as a script reading it would."""
    def write(self, text):
        sys.__stdout__.write(text)
        if text.startswith('tether ready'):
            os.kill(os.getpid(), signal.SIGTERM)

    def flush(self):
        sys.__stdout__.flush()


aio.AllInOne = StandIn
sys.stdout = SignalOnReady()
sys.exit(aio.main(['--state-dir', sys.argv[1]]))
'''


def test_a_sigterm_as_it_says_ready_stops_it_cleanly(tmp_path):
    proc = subprocess.run([sys.executable, '-c', SCRIPT, str(tmp_path)],
                          cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-2000:])
    assert proc.stdout.splitlines() == [
        'tether ready: volume=v compute=c image=i', 'stopped']
