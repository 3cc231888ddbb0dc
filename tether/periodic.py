"""Periodic tasks of the services: a function called every few seconds in
a thread of its own (shared by tether-volume and tether-compute)."""

import threading

from oslo_log import log as logging

LOG = logging.getLogger(__name__)


class Periodic(threading.Thread):
    """Call ``fn`` every ``interval`` seconds until stopped."""

    def __init__(self, name, interval, fn):
        super().__init__(name=name, daemon=True)
        self.interval = interval
        self.fn = fn
        self.stopping = threading.Event()

    def run(self):
        while not self.stopping.wait(self.interval):
            try:
                self.fn()
            except Exception:  # noqa: BLE001 - keep the loop alive
                LOG.exception('Periodic task %s failed', self.name)

    def stop(self):
        self.stopping.set()
