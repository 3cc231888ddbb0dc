"""Waiting on a compute host for an event another service sends
(``/os-server-external-events``), as Nova's compute manager waits.

The work that causes the event registers what it expects *before* it
asks for it (an event that came before anyone waited would be lost),
then waits with a timeout::

    with host.events.expect(instance.uuid, 'volume-reimaged', volume_id) \\
            as waiter:
        client.reimage(volume_id, image_id)
        status = waiter.wait(timeout)

The compute API casts each accepted event to the instance's host, whose
manager hands it to :meth:`InstanceEvents.deliver`. An event no one waits
for (it came late, or after a restart of tether-compute) is logged and
dropped. Waiters live in the memory of one tether-compute: a restart
forgets them, and the recovery at start settles the work that waited.
A stopping tether-compute ends every wait at once
(:meth:`InstanceEvents.stop`: ServiceStopping): the work leaves the
server as it is, for that recovery, rather than holding the stop for as
long as its timeout.
"""

import contextlib
import threading

from oslo_log import log as logging

from tether.compute import exception

LOG = logging.getLogger(__name__)


class Waiter:
    """One expected event; :meth:`wait` returns its status."""

    def __init__(self, key):
        self.key = key
        self._arrived = threading.Event()
        self.status = None
        self.stopped = False

    def _set(self, status):
        self.status = status
        self._arrived.set()

    def _stop(self):
        self.stopped = True
        self._arrived.set()

    def wait(self, timeout):
        """The event's status (``completed``, ``failed`` ...), or
        EventTimeout after ``timeout`` seconds."""
        arrived = self._arrived.wait(timeout)
        instance_uuid, name, tag = self.key
        if self.stopped:
            raise exception.ServiceStopping(name=name, tag=tag,
                                            instance_id=instance_uuid)
        if not arrived:
            raise exception.EventTimeout(name=name, tag=tag,
                                         instance_id=instance_uuid,
                                         timeout=timeout)
        return self.status


class InstanceEvents:
    def __init__(self):
        self._lock = threading.Lock()
        self._waiting = {}
        self._stopped = False

    def start(self):
        """Take waits again (the service started again after a stop)."""
        with self._lock:
            self._stopped = False

    def stop(self):
        """End every wait, now and to come until the next :meth:`start`
        (the service stops)."""
        with self._lock:
            self._stopped = True
            waiters = list(self._waiting.values())
        for waiter in waiters:
            waiter._stop()

    @contextlib.contextmanager
    def expect(self, instance_uuid, name, tag):
        """A Waiter for the event (instance, name, tag) while the block
        runs; one waiter per event at a time."""
        key = (instance_uuid, name, tag)
        waiter = Waiter(key)
        with self._lock:
            if key in self._waiting:
                raise exception.EventAlreadyExpected(
                    name=name, tag=tag, instance_id=instance_uuid)
            self._waiting[key] = waiter
            if self._stopped:
                waiter._stop()
        try:
            yield waiter
        finally:
            with self._lock:
                self._waiting.pop(key, None)

    def deliver(self, instance_uuid, name, tag, status):
        """Hand an event to its waiter; False if no one waits for it."""
        with self._lock:
            waiter = self._waiting.pop((instance_uuid, name, tag), None)
        if waiter is None:
            LOG.info('Event %s (%s) of instance %s came, and no one waits '
                     'for it', name, tag, instance_uuid)
            return False
        waiter._set(status)
        return True
