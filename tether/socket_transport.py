"""The broker of tether-aio's API worker processes: the in-process memory
transport (:mod:`tether.memory_transport`), served to other processes
over a Unix socket.

tether-aio runs its volume and compute managers in its main process, on
the memory transport, and its APIs in worker processes of their own (one
Python process cannot use more than one core). A worker's RPC clients use
the kombu transport of this module, selected by ``kombu+tether://`` URLs
(:func:`install` names the socket). Its channels do nothing themselves:
each declaration, binding and publish is carried out by a :class:`Broker`
thread of the main process on a memory channel, so exchanges, bindings
and queues stay in the one memory broker that the managers use. A
consumer asks the broker for the next message of its queues and the
broker waits for it as a local consumer would (on the memory transport's
condition, not by polling), so an idle worker costs nothing but one
request per poll timeout (oslo.messaging's 1 s).

The wire format: each request and answer is a JSON document preceded by
its length (4 bytes, network order). A request is ``[operation, args,
kwargs]``; an answer ``["ok", result]`` or ``["error", class, message]``.
Only the channel operations in ``OPERATIONS`` are served. The socket is
the owner's alone (mode 0600), like the rest of tether-aio's state
directory.

What is lost when a process dies is what a memory broker loses: a message
taken for a worker that dies before it reads the answer, and the messages
of a dead worker's queues (the broker deletes the auto-delete queues a
worker declared once its connection closes).
"""

import collections
import json
import os
from queue import Empty
import socket
import struct
import threading
import time

import kombu
import kombu.exceptions
import kombu.transport
from amqp import protocol as amqp_protocol
from kombu.transport import base
from kombu.transport import virtual
from oslo_log import log as logging
from oslo_utils import importutils

from tether import memory_transport

LOG = logging.getLogger(__name__)

# The channel operations a client may ask of the broker.
OPERATIONS = frozenset([
    'exchange_declare', 'exchange_delete', 'queue_declare', 'queue_delete',
    'queue_bind', 'queue_unbind', 'basic_publish', '_lookup', '_put',
    '_size', '_has_queue', '_new_queue', '_purge', '_delete', 'take',
])
# Longest a consumer's request waits for a message (the client asks again).
LONGEST_WAIT = 5.0
_HEADER = struct.Struct('!I')
# The transport URL of a worker's RPC (after install()).
URL = 'kombu+tether://'
# Set by install(): the socket of the broker the workers' transports use.
_SOCKET_PATH = None


class BrokerUnavailable(kombu.exceptions.OperationalError):
    """The broker's socket cannot be reached or was closed."""


def _send(sock, document):
    data = json.dumps(document).encode('utf-8')
    sock.sendall(_HEADER.pack(len(data)) + data)


def _receive(sock):
    """The next document, or None at the end of the stream."""
    header = _read_exactly(sock, _HEADER.size)
    if header is None:
        return None
    data = _read_exactly(sock, _HEADER.unpack(header)[0])
    if data is None:
        return None
    return json.loads(data.decode('utf-8'))


def _read_exactly(sock, size):
    chunks = []
    while size:
        chunk = sock.recv(min(size, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        size -= len(chunk)
    return b''.join(chunks)


def _jsonable(value):
    """Named tuples (queue_declare_ok_t) travel as lists."""
    if isinstance(value, tuple):
        return list(value)
    return value


# The broker (tether-aio's main process) ------------------------------------

class Broker:
    """Serves the memory broker on a Unix socket: a thread per client."""

    def __init__(self, path):
        self.path = path
        self._listener = None
        self._thread = None
        self._clients = set()
        self._lock = threading.Lock()
        self._stopping = False

    def start(self):
        if os.path.exists(self.path):
            os.unlink(self.path)
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old_umask = os.umask(0o177)
        try:
            listener.bind(self.path)
        finally:
            os.umask(old_umask)
        listener.listen(64)
        self._listener = listener
        self._thread = threading.Thread(target=self._accept,
                                        name='aio-broker', daemon=True)
        self._thread.start()

    def _accept(self):
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return  # closed by stop()
            with self._lock:
                if self._stopping:
                    client.close()
                    return
                self._clients.add(client)
            threading.Thread(target=self._serve, args=(client,),
                             name='aio-broker-client', daemon=True).start()

    def _serve(self, client):
        connection = kombu.Connection(transport=memory_transport.Transport)
        session = _Session(connection.channel())
        try:
            while True:
                try:
                    request = _receive(client)
                except OSError:
                    request = None
                if request is None:
                    return
                try:
                    _send(client, session.handle(*request))
                except OSError:
                    return
        finally:
            session.close()
            connection.release()
            with self._lock:
                self._clients.discard(client)
            client.close()

    def stop(self):
        with self._lock:
            self._stopping = True
            clients = list(self._clients)
        if self._listener is not None:
            self._listener.shutdown(socket.SHUT_RDWR)
            self._listener.close()
        for client in clients:
            try:
                client.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        if self._thread is not None:
            self._thread.join(5)
        if os.path.exists(self.path):
            os.unlink(self.path)


class _Session:
    """One client's operations, carried out on a memory channel."""

    def __init__(self, channel):
        self.channel = channel
        self.auto_delete = set()
        self._turn = 0

    def handle(self, operation, args, kwargs):
        if operation not in OPERATIONS:
            return ['error', 'kombu.exceptions.OperationalError',
                    'the broker does not serve %r' % operation]
        try:
            if operation == 'take':
                result = self.take(*args, **kwargs)
            else:
                if operation == 'queue_declare' and kwargs.get('auto_delete'):
                    self.auto_delete.add(args[0] if args else kwargs['queue'])
                result = getattr(self.channel, operation)(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - raised again in the client
            cls = type(exc)
            return ['error', '%s.%s' % (cls.__module__, cls.__qualname__),
                    str(exc)]
        return ['ok', _jsonable(result)]

    def take(self, queues, timeout):
        """The next message of any of ``queues`` as ``[message, queue]``,
        waiting up to ``timeout`` seconds; None if none came."""
        deadline = time.monotonic() + min(timeout, LONGEST_WAIT)
        while True:
            seen = memory_transport.puts()
            # Start at another queue each time, so that none starves.
            self._turn = (self._turn + 1) % max(len(queues), 1)
            for name in queues[self._turn:] + queues[:self._turn]:
                try:
                    return [self.channel._get(name), name]
                except Empty:
                    continue
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            memory_transport.wait_for_put(seen, left)

    def close(self):
        for name in self.auto_delete:
            try:
                # Its bindings, then the queue (which has none left).
                self.channel.queue_delete(name)
                self.channel._delete(name)
            except Exception:  # noqa: BLE001 - gone already, or never made
                LOG.debug('Could not delete queue %s', name, exc_info=True)


# The client (tether-aio's API workers) -------------------------------------

class _Connection:
    """One socket to the broker; one request at a time."""

    def __init__(self, path):
        if path is None:
            raise BrokerUnavailable('no broker socket is configured (call '
                                    'tether.socket_transport.install)')
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self.sock.connect(path)
        except OSError as exc:
            self.sock.close()
            raise BrokerUnavailable('cannot reach the broker at %s: %s'
                                    % (path, exc)) from exc
        self.lock = threading.Lock()

    def call(self, operation, *args, **kwargs):
        with self.lock:
            try:
                _send(self.sock, [operation, list(args), kwargs])
                answer = _receive(self.sock)
            except OSError as exc:
                raise BrokerUnavailable('the broker connection failed: %s'
                                        % exc) from exc
        if answer is None:
            raise BrokerUnavailable('the broker closed the connection')
        if answer[0] == 'ok':
            return answer[1]
        raise _error(answer[1], answer[2])

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def _error(class_path, message):
    """The broker's exception as its own class where that can be made
    from a message, else a kombu OperationalError naming it."""
    try:
        cls = importutils.import_class(class_path)
        if issubclass(cls, Exception):
            return cls(message)
    except Exception:  # noqa: BLE001 - not importable or not from a message
        pass
    return kombu.exceptions.OperationalError('%s: %s' % (class_path,
                                                         message))


def _forward(operation):
    def forwarded(self, *args, **kwargs):
        return self._broker.call(operation, *args, **kwargs)
    forwarded.__name__ = operation
    forwarded.__doc__ = 'Carried out by the broker.'
    return forwarded


class Channel(virtual.Channel):
    """A channel whose every operation the broker carries out."""

    do_restore = False
    supports_fanout = True

    def __init__(self, connection, **kwargs):
        self._broker = _Connection(_SOCKET_PATH)
        # kombu's producers listen here for returned messages (the
        # memory broker returns none).
        self.events = collections.defaultdict(set)
        super().__init__(connection, **kwargs)

    exchange_declare = _forward('exchange_declare')
    exchange_delete = _forward('exchange_delete')
    queue_delete = _forward('queue_delete')
    queue_bind = _forward('queue_bind')
    queue_unbind = _forward('queue_unbind')
    basic_publish = _forward('basic_publish')
    _lookup = _forward('_lookup')
    _put = _forward('_put')
    _size = _forward('_size')
    _has_queue = _forward('_has_queue')
    _new_queue = _forward('_new_queue')
    _purge = _forward('_purge')
    _delete = _forward('_delete')

    def queue_declare(self, queue=None, passive=False, **kwargs):
        name, size, consumers = self._broker.call(
            'queue_declare', queue, passive=passive, **kwargs)
        return amqp_protocol.queue_declare_ok_t(name, size, consumers)

    def _get(self, queue, timeout=None):
        message = self._broker.call('take', [queue], 0)
        if message is None:
            raise Empty()
        return message[0]

    def close(self):
        super().close()
        self._broker.close()


class Transport(virtual.Transport):
    """kombu's virtual transport over :class:`Channel`: the consumer
    asks the broker for its next message and waits there."""

    Channel = Channel
    driver_type = 'tether'
    driver_name = 'tether'
    implements = base.Transport.implements
    connection_errors = (BrokerUnavailable, OSError)
    channel_errors = virtual.Transport.channel_errors

    def __init__(self, client, **kwargs):
        super().__init__(client, **kwargs)
        self._waiter = None

    def driver_version(self):
        return 'N/A'

    def drain_events(self, connection, timeout=None):
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            queues = [name for channel in self.channels
                      if channel._consumers and channel.qos.can_consume()
                      for name in channel._active_queues]
            left = (LONGEST_WAIT if deadline is None
                    else deadline - time.monotonic())
            if left <= 0:
                raise socket.timeout()
            if not queues:
                time.sleep(min(left, 0.05))
                continue
            if self._waiter is None:
                self._waiter = _Connection(_SOCKET_PATH)
            got = self._waiter.call('take', queues, left)
            if got is not None:
                self._deliver(*got)
                return

    def close_connection(self, connection):
        super().close_connection(connection)
        if self._waiter is not None:
            self._waiter.close()
            self._waiter = None


def install(path):
    """``kombu+tether://`` transports of this process reach the broker
    at ``path``."""
    global _SOCKET_PATH
    _SOCKET_PATH = path
    kombu.transport.TRANSPORT_ALIASES['tether'] = __name__ + ':Transport'
