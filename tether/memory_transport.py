"""The in-process broker of tether-aio: kombu's memory transport, waking
its consumers when a message arrives instead of asking over and over.

oslo.messaging sets the memory transport's polling interval to 0 (to
speed up its own tests), so every RPC listener of a process spins in
``drain_events``: an idle tether-aio used 44-47 % of a CPU core for its
three listeners. Here an empty poll waits on a condition that every
message put notifies, up to the poll's timeout (oslo.messaging's 50 ms for
a memory transport, so that a listener still sees a stop at once): a
message is taken as soon as it is put, and an idle listener wakes 20
times a second.

:func:`install` makes ``memory://`` (and ``kombu+memory://``) URLs use it;
tether-aio calls it before it creates its transport.

oslo.messaging's listeners on a ``memory://`` URL also poll every 50 ms
(a kludge for its own tests): 20 wake-ups a second of each listener, the
aio's main process's whole idle cost (about 2 % of a core for its three
listeners). tether-aio's URL therefore names this transport by another
scheme, ``kombu+tether-memory://`` (:data:`URL`), on which
oslo.messaging waits as it waits on a RabbitMQ without heartbeats: a
second at a time, woken at once by a message. A listener being stopped
looks at its stop only when a wait ends: :func:`waking`, around a stop,
makes every wait end within 50 ms while it lasts.
"""

import contextlib
import queue
import socket
import threading
import time

import kombu.transport
from kombu.transport import memory

SCHEME = 'tether-memory'
URL = 'kombu+%s://localhost//' % SCHEME
# The longest a wait lasts while something is stopped (see waking).
STOPPING_WAIT = 0.05

_ARRIVED = threading.Condition()
# How many messages were put: a consumer that found every queue empty
# waits only if none was put since it looked.
_put_count = 0
# How many stops are under way (see waking).
_stopping = 0


def _notify():
    global _put_count
    with _ARRIVED:
        _put_count += 1
        _ARRIVED.notify_all()


def puts():
    """How many messages were put so far (for :func:`wait_for_put`)."""
    with _ARRIVED:
        return _put_count


def wait_for_put(seen, timeout):
    """Wait until a message is put after ``puts()`` returned ``seen``, or
    ``timeout`` seconds (None: for ever) pass."""
    with _ARRIVED:
        if _put_count == seen:
            _ARRIVED.wait(timeout)


@contextlib.contextmanager
def waking():
    """While this lasts, every wait of this transport ends within
    STOPPING_WAIT (those under way at once), so that a listener stopped
    meanwhile sees its stop (oslo.messaging looks at it between waits)."""
    global _stopping
    with _ARRIVED:
        _stopping += 1
        _ARRIVED.notify_all()
    try:
        yield
    finally:
        with _ARRIVED:
            _stopping -= 1


def stopping():
    with _ARRIVED:
        return _stopping > 0


class Channel(memory.Channel):

    def _put(self, queue, message, **kwargs):
        super()._put(queue, message, **kwargs)
        _notify()

    def _put_fanout(self, exchange, message, routing_key=None, **kwargs):
        super()._put_fanout(exchange, message, routing_key, **kwargs)
        _notify()


class Transport(memory.Transport):
    Channel = Channel

    def drain_events(self, connection, timeout=None):
        deadline = None if timeout is None else time.monotonic() + timeout
        waited_while_stopping = False
        while True:
            seen = puts()
            try:
                self.cycle.get(self._deliver, timeout=timeout)
                return
            except queue.Empty:
                pass
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise socket.timeout()
            if stopping():
                if waited_while_stopping:
                    # Back to the caller, which looks at its stop.
                    raise socket.timeout()
                waited_while_stopping = True
                left = (STOPPING_WAIT if left is None
                        else min(left, STOPPING_WAIT))
            wait_for_put(seen, left)


def install():
    """``memory://`` and ``tether-memory://`` transports of this process
    are this module's."""
    for scheme in ('memory', SCHEME):
        kombu.transport.TRANSPORT_ALIASES[scheme] = __name__ + ':Transport'
