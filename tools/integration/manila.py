"""Manila and Ceph in the integration deployment: tools/manila_ceph/ in
its Keystone mode, started beside the rest.

Manila (its own PostgreSQL and RabbitMQ, a one-node Ceph, manila-api,
-scheduler and -share) starts in a thread once Keystone holds the
deployment's users, while tether's daemons and Glance start: about 25 s
of its start then overlap theirs. Its processes carry the deployment's
run tag, so that the deployment's check for leftovers finds them too.

Its virtualenv and the Ceph packages are ``tools/install-deps.sh manila``'s
(bindep profile manila); the integration job runs that before the tests.
"""

import os
import sys
import threading

# tools/, so that manila_ceph imports as it does for the functional tests.
TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if TOOLS not in sys.path:
    sys.path.insert(0, TOOLS)

from manila_ceph import deployment as manila_deployment  # noqa: E402
from manila_ceph import keystone as manila_keystone  # noqa: E402

# What tether-compute's [share] section adds to the service credentials:
# Manila is the sharev2 of the catalog ([share] catalog_info's default).
SHARE_CONF = """\
# How the compute service calls the share API, Manila (Nova's [manila]).
[share]
auth_type = password
auth_url = {keystone}
{credentials}os_region_name = RegionOne
"""
# MiB of guest memory the host may back by files: then it reports
# COMPUTE_MEM_BACKING_FILE, which an attach of a share needs (virtio-fs
# shares the guest's memory with virtiofsd).
FILE_BACKED_MEMORY = 1024


class Manila:
    """``start()`` returns at once; ``wait()`` until Manila serves (or
    raises what stopped it); ``stop()`` stops every process by its PID."""

    def __init__(self, root, run_tag, admin_auth, region, log):
        self.log = log
        self.keystone = manila_keystone.Keystone(admin_auth, region=region,
                                                 log=log)
        path = os.path.join(root, 'manila')
        os.makedirs(path, exist_ok=True)
        os.chmod(path, 0o755)   # PostgreSQL and RabbitMQ run as their users
        self.deployment = manila_deployment.Deployment(
            path, log=log, keystone=self.keystone, run_tag=run_tag)
        self._thread = None
        self._stopping = None
        self._error = None

    @property
    def endpoint(self):
        return self.deployment.endpoint

    @property
    def timings(self):
        return self.deployment.timings

    def start(self):
        self._thread = threading.Thread(target=self._start,
                                        name='manila-start', daemon=True)
        self._thread.start()
        return self

    def _start(self):
        try:
            self.deployment.start()
        except BaseException as exc:  # noqa: BLE001 - wait() raises it
            self._error = exc

    def wait(self, timeout=600):
        if self._thread is None:
            return
        self._thread.join(timeout)
        if self._thread.is_alive():
            raise TimeoutError('Manila did not start in %d s' % timeout)
        if self._error is not None:
            raise RuntimeError('Manila did not start: %s'
                               % self._error) from self._error

    def stop_soon(self):
        """Begin to stop, in a thread: manila-share and -scheduler take
        10-20 s to end, which the rest of the deployment's stop need not
        wait for. Nothing is removed from Keystone: the deployment's own
        Keystone stops too."""
        if self._stopping is None:
            self._stopping = threading.Thread(target=self._stop,
                                              name='manila-stop', daemon=True)
            self._stopping.start()

    def _stop(self):
        if self._thread is not None:
            # A start still under way is let finish before stopping.
            self._thread.join(600)
        try:
            self.deployment.stop(unregister=False)
        except BaseException as exc:  # noqa: BLE001 - stop() raises it
            self._error = exc
        else:
            self._error = None

    def stop(self):
        """Stop (or finish stopping) every process of Manila and Ceph."""
        self.stop_soon()
        self._stopping.join(600)
        if self._error is not None:
            raise RuntimeError('stopping Manila failed: %s' % self._error)

    def log_paths(self):
        log_dir = os.path.join(self.deployment.dir, 'log')
        if not os.path.isdir(log_dir):
            return []
        return [os.path.join(log_dir, name)
                for name in sorted(os.listdir(log_dir))]
