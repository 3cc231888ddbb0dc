"""What the modules an API worker has loaded cost a fresh Python on their
own, with tether's and without (volume_api.py --import-floor).

A worker's RSS is the modules it imported plus what serving built up.
The modules part is measured again outside the worker: a new interpreter
imports the same modules, in the order the worker did (from its
``sys.modules``), and reports its RSS; once with every module, and once
without tether's own (``tether`` and ``tether.*``), which is the floor
that the libraries tether builds on set before a line of tether runs.

The worker's module list is read from inside it: a ``sitecustomize`` on
``PYTHONPATH`` (one of this module's, set up before the server starts,
so that every Python process of the server loads it) starts a thread
that waits for a trigger file and then writes ``sys.modules``. It
replaces any other ``sitecustomize`` on the path for that run.
"""

import functools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ENVIRONMENT = 'TETHER_BENCH_MODULES_DIR'
TRIGGER = 'dump'

# Only built-in modules are imported here (sys, time, _thread): a module
# this imported in its thread while the process imports the same one
# would be seen half made by one of them, and a module it added would
# count as the process's.
SITECUSTOMIZE = '''\
# Written by tools/bench/import_floor.py: on request, this process's
# module names, in the order they were imported, one per line.
import os


def _watch(directory):
    import sys
    import time
    trigger = os.path.join(directory, %(trigger)r)
    path = os.path.join(directory, '%%d.modules' %% os.getpid())
    while not os.path.exists(trigger):
        time.sleep(0.5)
    with open(path + '.tmp', 'w') as f:
        f.write('\\n'.join(list(sys.modules)))
    os.rename(path + '.tmp', path)


def _start():
    import _thread
    _thread.start_new_thread(_watch, (os.environ[%(env)r],))


if os.environ.get(%(env)r):
    _start()
    # A forked child (a gunicorn worker) has no thread of its parent's.
    os.register_at_fork(after_in_child=_start)
''' % {'trigger': TRIGGER, 'env': ENVIRONMENT}

# Run by a new interpreter: import the modules named in argv[1] (a JSON
# list), in order, then print the RSS and how many are loaded and failed.
# Only those: a module the worker did not have (eventlet, which tether
# keeps out, or another optional import of a library) is not found.
IMPORTER = '''\
import gc, importlib, importlib.abc, json, sys, warnings
warnings.simplefilter('ignore')
names = json.load(open(sys.argv[1]))
wanted = set(names)


class Only(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name not in wanted:
            raise ModuleNotFoundError('not loaded by the worker', name=name)
        return None


sys.meta_path.insert(0, Only())
if 'oslo_service.backend' in wanted:
    # As tether/__init__.py does before anything asks for a backend:
    # oslo.service's default is eventlet's, which the worker never had.
    from oslo_service import backend
    backend.init_backend(backend.BackendType.THREADING)
failed = 0
for name in names:
    if name in sys.modules:
        continue
    try:
        importlib.import_module(name)
    except BaseException:
        failed += 1
gc.collect()
with open('/proc/self/status') as f:
    rss = [int(line.split()[1]) for line in f if line.startswith('VmRSS')][0]
print(json.dumps({'rss_kib': rss, 'modules': len(sys.modules),
                  'failed': failed}))
'''


class ModuleRecorder:
    """Makes the Python processes started after it (in this process's
    environment) able to report their modules: see the module's
    docstring."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix='import-floor-')
        with open(os.path.join(self.dir, 'sitecustomize.py'), 'w') as f:
            f.write(SITECUSTOMIZE)
        os.chmod(self.dir, 0o755)
        path = os.environ.get('PYTHONPATH')
        os.environ['PYTHONPATH'] = (self.dir + os.pathsep + path
                                    if path else self.dir)
        os.environ[ENVIRONMENT] = self.dir

    def modules(self, pids, timeout=30):
        """{pid: its module names in import order}, of the processes
        ``pids`` that report within ``timeout`` seconds."""
        open(os.path.join(self.dir, TRIGGER), 'w').close()
        found = {}
        deadline = time.monotonic() + timeout
        while len(found) < len(pids) and time.monotonic() < deadline:
            for pid in pids:
                path = os.path.join(self.dir, '%d.modules' % pid)
                if pid not in found and os.path.exists(path):
                    with open(path) as f:
                        found[pid] = f.read().split('\n')
            time.sleep(0.2)
        return found

    def cleanup(self):
        shutil.rmtree(self.dir, ignore_errors=True)


def is_tethers(name):
    return name == 'tether' or name.startswith('tether.')


def fresh_import(names):
    """A new interpreter's {rss_kib, modules, failed} after importing
    ``names`` in order (without this run's sitecustomize)."""
    env = dict(os.environ)
    env.pop(ENVIRONMENT, None)
    paths = [p for p in env.get('PYTHONPATH', '').split(os.pathsep)
             if p and not os.path.basename(p).startswith('import-floor-')]
    env['PYTHONPATH'] = os.pathsep.join(paths)
    with tempfile.NamedTemporaryFile('w', suffix='.json') as f:
        json.dump([n for n in names
                   if n not in ('__main__', '__mp_main__', 'sitecustomize')],
                  f)
        f.flush()
        out = subprocess.run([sys.executable, '-c', IMPORTER, f.name],
                             env=env, capture_output=True, text=True,
                             check=True, cwd='/').stdout
    return json.loads(out.strip().splitlines()[-1])


def floor(names):
    """What the module list ``names`` of a worker costs a fresh Python,
    with and without tether's modules."""
    return {
        'modules': len(names),
        'tether_modules': sum(1 for n in names if is_tethers(n)),
        'all': fresh_import(names),
        'libraries': fresh_import([n for n in names if not is_tethers(n)]),
        'python': python_alone(),
    }


@functools.cache
def python_alone():
    """A fresh Python's {rss_kib, modules, failed} with nothing
    imported: the same for every worker, measured once."""
    return fresh_import([])


def print_floors(floors):
    """One line per worker: its modules, and what they cost anew."""
    for name, f in floors.items():
        print('%s: %d modules loaded (%d of them tether\'s); a fresh Python '
              'importing them: %.1f MiB RSS, without tether\'s: %.1f MiB '
              '(the libraries\' floor; Python alone %.1f MiB; %d and %d '
              'modules would not import anew)'
              % (name, f['modules'], f['tether_modules'],
                 f['all']['rss_kib'] / 1024,
                 f['libraries']['rss_kib'] / 1024,
                 f['python']['rss_kib'] / 1024, f['all']['failed'],
                 f['libraries']['failed']))
