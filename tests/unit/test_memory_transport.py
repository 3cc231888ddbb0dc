"""tether-aio's in-process broker: a consumer takes a message as soon as
it is put, and costs nothing while it waits (kombu's memory transport as
oslo.messaging sets it up spins)."""

import socket
import threading
import time

import kombu
from kombu.transport import memory
import pytest

from tests.unit import kombu_queues
from tether import memory_transport


@pytest.fixture
def installed():
    before = dict(kombu.transport.TRANSPORT_ALIASES)
    memory_transport.install()
    yield
    kombu.transport.TRANSPORT_ALIASES.clear()
    kombu.transport.TRANSPORT_ALIASES.update(before)


def _polls_while_idle(conn, seconds):
    """How many times the queues were asked for a message while
    drain_events waited ``seconds`` in vain (a spy on the channel)."""
    channel = conn.default_channel
    get = channel._get
    polls = []

    def counted(queue, timeout=None):
        polls.append(queue)
        return get(queue, timeout)
    channel._get = counted
    with pytest.raises(socket.timeout):
        conn.drain_events(timeout=seconds)
    return len(polls)


def test_a_waiting_consumer_does_not_ask_over_and_over(installed):
    conn = kombu_queues.consumer('memory://', 'idle', [])
    assert isinstance(conn.transport, memory_transport.Transport)
    assert _polls_while_idle(conn, 0.5) <= 3


def test_kombus_own_memory_transport_spins_as_oslo_sets_it_up():
    """What the test above guards against (it fails without this
    module): thousands of polls in half a second on a quiet machine, and
    still dozens on a busy one (43 with two pytest workers and a Tempest
    run on two cores), against at most 3."""
    conn = kombu_queues.consumer('memory://', 'spin', [],
                                 transport=memory.Transport)
    assert _polls_while_idle(conn, 0.5) > 20


def test_a_message_is_taken_as_soon_as_it_is_put(installed):
    received = []
    conn = kombu_queues.consumer('memory://', 'prompt', received)
    sent = []

    def later():
        time.sleep(0.2)
        sent.append(time.monotonic())
        kombu_queues.publish('prompt', {'n': 1})
    threading.Thread(target=later).start()
    conn.drain_events(timeout=5)
    assert [body for body, _ in received] == [{'n': 1}]
    # Taken when put, not at the end of the 5 s wait (a missed wake-up);
    # the bound leaves a loaded machine room.
    assert received[0][1] - sent[0] < 1


def test_a_message_put_before_the_wait_is_not_missed(installed):
    received = []
    conn = kombu_queues.consumer('memory://', 'early', received)
    kombu_queues.publish('early', {'n': 2})
    started = time.monotonic()
    conn.drain_events(timeout=5)
    assert received and time.monotonic() - started < 1


def test_a_stop_ends_every_wait_at_once(installed):
    """What a listener being stopped needs: its wait ends within
    STOPPING_WAIT of waking(), though it was asked to wait 5 s."""
    conn = kombu_queues.consumer('tether-memory://', 'stopped', [])
    ended = []

    def drain():
        started = time.monotonic()
        with pytest.raises(socket.timeout):
            conn.drain_events(timeout=5)
        ended.append(time.monotonic() - started)
    waiter = threading.Thread(target=drain)
    waiter.start()
    time.sleep(0.2)
    with memory_transport.waking():
        waiter.join(timeout=10)
    assert ended and ended[0] < 2
    assert not memory_transport.stopping()


# Through oslo.messaging ----------------------------------------------------

@pytest.fixture
def no_heartbeats():
    """As tether-aio runs its brokers (aio_config.no_heartbeats; set by
    _rpc_server, once the transport registered the option)."""
    from oslo_config import cfg

    yield
    cfg.CONF.clear_override('heartbeat_timeout_threshold',
                            group='oslo_messaging_rabbit')


class _Endpoint:
    def ping(self, ctxt):
        return 'pong'


def _rpc_server(url, topic):
    """An oslo.messaging RPC server (started) on ``url``, and a counter
    of the waits of its transport (drain_events calls)."""
    from oslo_config import cfg
    import oslo_messaging as messaging

    conf = cfg.CONF
    transport = messaging.get_rpc_transport(conf, url=url)
    conf.set_override('heartbeat_timeout_threshold', 0,
                      group='oslo_messaging_rabbit')
    target = messaging.Target(topic=topic, server='host')
    server = messaging.get_rpc_server(transport, target, [_Endpoint()],
                                      executor='threading')
    drains = []
    original = memory_transport.Transport.drain_events

    def counted(self, connection, timeout=None):
        drains.append((time.monotonic(), timeout))
        return original(self, connection, timeout)
    return transport, server, drains, counted


def _idle_waits(drains, seconds=1.5):
    """How many waits the started, idle server's transport began in
    ``seconds`` (after 0.3 s for it to settle)."""
    time.sleep(0.3)
    before = len(drains)
    time.sleep(seconds)
    return len(drains) - before


@pytest.mark.parametrize('url, most', [
    # tether-aio's URL: a listener waits a second at a time.
    (memory_transport.URL, 3),
])
def test_an_idle_listener_waits_a_second_at_a_time(installed, no_heartbeats,
                                                   monkeypatch, url, most):
    from tether import rpc

    transport, server, drains, counted = _rpc_server(url, 'idle-topic')
    monkeypatch.setattr(memory_transport.Transport, 'drain_events', counted)
    server.start()
    try:
        idle = _idle_waits(drains)
        # Stop it just after it began a wait of a whole second.
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            began, timeout = drains[-1]
            if timeout >= 0.99 and time.monotonic() - began < 0.1:
                break
            time.sleep(0.005)
        started = time.monotonic()
        rpc.stop_server(server)
        stopped_in = time.monotonic() - started
    finally:
        transport.cleanup()
    assert idle <= most
    # Told to end its wait, the listener stops at once rather than at the
    # end of its second (which leaves at least 0.9 s; a loaded machine
    # has room below that).
    assert stopped_in < 0.6


def test_oslo_messaging_polls_a_memory_url_twenty_times_a_second(
        installed, no_heartbeats, monkeypatch):
    """What the test above guards against (its URL's reason): on a
    ``memory://`` URL oslo.messaging waits 50 ms at a time."""
    transport, server, drains, counted = _rpc_server(
        'kombu+memory://localhost//', 'spin-topic')
    monkeypatch.setattr(memory_transport.Transport, 'drain_events', counted)
    server.start()
    try:
        idle = _idle_waits(drains)
        server.stop()
        server.wait()
    finally:
        transport.cleanup()
    assert idle > 10


def test_a_call_is_answered_at_once(installed, no_heartbeats):
    """A message still wakes the waiting listener (an RPC round trip does
    not wait out the second)."""
    import oslo_messaging as messaging
    from tether import rpc

    transport, server, _drains, _counted = _rpc_server(
        memory_transport.URL, 'call-topic')
    server.start()
    try:
        time.sleep(0.3)
        client = messaging.get_rpc_client(
            transport, messaging.Target(topic='call-topic', server='host'))
        started = time.monotonic()
        assert client.call({}, 'ping') == 'pong'
        assert time.monotonic() - started < 0.9
        rpc.stop_server(server)
    finally:
        transport.cleanup()
