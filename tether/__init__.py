"""tether: an OpenStack-compatible control plane for block storage and
compute."""

import importlib.abc
import sys

from oslo_service import backend as _service_backend


class _NoEventlet(importlib.abc.MetaPathFinder):
    """Make eventlet look not installed.

    tether runs on native threads, yet futurist, oslo.utils' eventletutils
    and oslo.messaging import eventlet whenever it is installed (a
    dependency of oslo.service), only to offer green executors or to see
    whether it monkey patched the process: about 7 MiB and 250 modules in
    every tether process (measured in an API worker), and a deprecation
    warning. Each of them catches the ImportError and carries on without
    it, as where eventlet is not installed.
    """

    def find_spec(self, name, path=None, target=None):
        if name == 'eventlet' or name.startswith('eventlet.'):
            raise ModuleNotFoundError(
                'tether runs on native threads and keeps eventlet out '
                '(tether/__init__.py)', name=name)
        return None


# A process that loaded eventlet before tether keeps it.
if 'eventlet' not in sys.modules:
    sys.meta_path.insert(0, _NoEventlet())

# oslo.messaging imports oslo.service, whose default backend is eventlet's:
# choose the threading backend before anything asks for one.
try:
    _service_backend.init_backend(_service_backend.BackendType.THREADING)
except _service_backend.exceptions.BackendAlreadySelected:
    pass
