"""The broker of tether-aio's API workers: RPC over a Unix socket to the
in-process memory broker, with real oslo.messaging on both sides (the
client side here runs in the test's process too, but talks to the broker
only through the socket, as a worker process does)."""

import os
import socket
import stat
import threading
import time

import kombu
from kombu.transport import memory
from oslo_config import cfg
import oslo_messaging as messaging
import pytest

from tests.unit import kombu_queues
from tether import memory_transport
from tether import socket_transport


@pytest.fixture
def broker(tmp_path):
    before = dict(kombu.transport.TRANSPORT_ALIASES)
    memory_transport.install()
    path = str(tmp_path / 'broker.sock')
    socket_transport.install(path)
    broker = socket_transport.Broker(path)
    broker.start()
    yield broker
    broker.stop()
    kombu.transport.TRANSPORT_ALIASES.clear()
    kombu.transport.TRANSPORT_ALIASES.update(before)


class Endpoint:
    target = messaging.Target(version='1.0')

    def __init__(self):
        self.casts = []
        self.arrived = threading.Event()

    def echo(self, ctxt, value):
        return value

    def fail(self, ctxt):
        raise ValueError('refused on purpose')

    def note(self, ctxt, value):
        self.casts.append(value)
        self.arrived.set()


@pytest.fixture
def rpc(broker):
    """An RPC server on the memory transport (the main process) and a
    client on the socket transport (a worker)."""
    conf = cfg.CONF
    server_transport = messaging.get_rpc_transport(
        conf, url='kombu+memory://localhost//')
    conf.set_override('heartbeat_timeout_threshold', 0,
                      group='oslo_messaging_rabbit')
    endpoint = Endpoint()
    server = messaging.get_rpc_server(
        server_transport, messaging.Target(topic='t', server='main'),
        [endpoint])
    server.start()
    client_transport = messaging.get_rpc_transport(
        conf, url=socket_transport.URL)
    client = messaging.get_rpc_client(
        client_transport, messaging.Target(topic='t', version='1.0'),
        timeout=10)
    yield client, endpoint
    server.stop()
    server.wait()
    client_transport.cleanup()
    server_transport.cleanup()
    conf.clear_override('heartbeat_timeout_threshold',
                        group='oslo_messaging_rabbit')


def test_call_and_cast_cross_the_socket(rpc):
    client, endpoint = rpc
    assert client.call({}, 'echo', value={'a': [1, 'b']}) == {'a': [1, 'b']}
    client.cast({}, 'note', value=7)
    assert endpoint.arrived.wait(5)
    assert endpoint.casts == [7]


def test_a_remote_error_comes_back(rpc):
    client, _ = rpc
    with pytest.raises(ValueError) as raised:  # a builtin: as itself
        client.call({}, 'fail')
    assert 'refused on purpose' in str(raised.value)


def test_a_fanout_cast_reaches_the_server(rpc):
    client, endpoint = rpc
    client.prepare(fanout=True).cast({}, 'note', value='all')
    assert endpoint.arrived.wait(5)
    assert endpoint.casts == ['all']


def _socket_consumer(name, received):
    return kombu_queues.consumer(socket_transport.URL.replace('kombu+', ''),
                                 name, received)


def test_a_waiting_consumer_asks_the_broker_once(broker, monkeypatch):
    """The broker waits for a message on the consumer's behalf: one
    request for the whole wait, none in between (a consumer that asked
    over and over would cost an idle worker CPU)."""
    takes = []
    take = socket_transport._Session.take

    def counted(self, queues, timeout):
        takes.append(queues)
        return take(self, queues, timeout)
    monkeypatch.setattr(socket_transport._Session, 'take', counted)
    conn = _socket_consumer('idle', [])
    with pytest.raises(socket.timeout):
        conn.drain_events(timeout=1.0)
    assert len(takes) == 1
    conn.release()


def test_a_message_is_taken_as_soon_as_it_is_put(broker):
    received = []
    conn = _socket_consumer('prompt', received)
    sent = []

    def publish():
        time.sleep(0.3)
        sent.append(time.monotonic())
        kombu_queues.publish('prompt', 'hello')
    threading.Thread(target=publish).start()
    conn.drain_events(timeout=5)
    assert [body for body, _ in received] == ['hello']
    assert received[0][1] - sent[0] < 1.0
    conn.release()


def test_the_broker_serves_only_channel_operations(broker):
    conn = socket_transport._Connection(broker.path)
    with pytest.raises(kombu.exceptions.OperationalError) as raised:
        conn.call('close')
    assert "does not serve 'close'" in str(raised.value)
    # The connection is still good.
    assert conn.call('_has_queue', 'nothing-here') is False
    conn.close()


def test_the_socket_is_its_owners_alone(broker):
    assert stat.S_IMODE(os.stat(broker.path).st_mode) == 0o600


def test_a_gone_clients_auto_delete_queues_go(broker):
    conn = kombu.Connection(socket_transport.URL.replace('kombu+', ''))
    channel = conn.channel()
    channel.queue_declare('reply-of-a-worker', auto_delete=True)
    channel.queue_declare('kept', auto_delete=False)
    assert 'reply-of-a-worker' in memory.Channel.queues
    conn.release()
    deadline = time.monotonic() + 5
    while ('reply-of-a-worker' in memory.Channel.queues
           and time.monotonic() < deadline):
        time.sleep(0.01)
    assert 'reply-of-a-worker' not in memory.Channel.queues
    assert 'kept' in memory.Channel.queues


def test_no_broker_is_a_connection_error(tmp_path):
    with pytest.raises(socket_transport.BrokerUnavailable) as raised:
        socket_transport._Connection(str(tmp_path / 'none.sock'))
    assert 'cannot reach the broker' in str(raised.value)
