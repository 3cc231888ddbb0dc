"""Virtualenvs of the real services tether runs beside it (Glance here;
Keystone and Manila in tools/), each made from a requirements file and
kept until the requirements it lists change."""

import hashlib
import os
import shutil
import subprocess
import sys
import time

# The digest of the requirements a virtualenv was made from, inside it.
STAMP = 'tether-requirements.sha256'


def digest(requirements):
    """The requirements file's requirements (comments and blank lines do
    not count: editing a comment does not remake the virtualenv)."""
    with open(requirements) as f:
        lines = [line.split('#', 1)[0].strip() for line in f]
    return hashlib.sha256(
        '\n'.join(line for line in lines if line).encode()).hexdigest()


def _run(argv, timeout, env=None):
    proc = subprocess.run(argv, env=env, stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError('%s exited %d:\n%s' % (
            ' '.join(argv), proc.returncode, proc.stdout[-4000:]))
    return proc.stdout


def ensure(venv_dir, requirements, what, python=None, log=print,
           timeout=1200, finish=None):
    """Make ``venv_dir`` with ``requirements`` installed, unless it was
    made from those requirements already; ``what`` names it in the log.

    ``python`` makes the virtualenv (default: the base interpreter of the
    running one; on Debian its ``venv`` module needs python3-venv).
    ``finish(venv_dir)``, if given, completes a new virtualenv before it
    counts as made. Returns the seconds the installation took, 0.0 if the
    virtualenv was there already.
    """
    wanted = digest(requirements)
    stamp = os.path.join(venv_dir, STAMP)
    try:
        with open(stamp) as f:
            if f.read().strip() == wanted:
                return 0.0
    except OSError:
        pass
    log('%s: installing into %s' % (what, venv_dir))
    began = time.monotonic()
    shutil.rmtree(venv_dir, ignore_errors=True)
    python = python or getattr(sys, '_base_executable', sys.executable)
    _run([python, '-m', 'venv', venv_dir], timeout=300)
    _run([os.path.join(venv_dir, 'bin', 'pip'), 'install', '-q',
          '--disable-pip-version-check', '-r', requirements],
         timeout=timeout, env=dict(os.environ, PIP_ROOT_USER_ACTION='ignore'))
    if finish is not None:
        finish(venv_dir)
    with open(stamp, 'w') as f:
        f.write(wanted + '\n')
    elapsed = time.monotonic() - began
    log('%s: installed in %.1fs' % (what, elapsed))
    return elapsed
