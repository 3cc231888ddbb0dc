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
