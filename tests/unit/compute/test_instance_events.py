"""Waiting for an external event on a compute host."""

import threading
import time

import pytest

from tether.compute import exception
from tether.compute import instance_events

UUID = '5a3f3c7e-6b9e-4a59-9f0c-3b1d2f8e7a10'


def test_an_event_that_comes_while_waited_for():
    events = instance_events.InstanceEvents()
    with events.expect(UUID, 'volume-reimaged', 'vol') as waiter:
        timer = threading.Timer(0.05, events.deliver,
                                (UUID, 'volume-reimaged', 'vol', 'failed'))
        timer.start()
        assert waiter.wait(5) == 'failed'
    timer.join()


def test_an_event_that_came_before_the_wait_is_not_lost():
    """The work registers, then asks for the event, then waits: an
    answer faster than the wait still reaches it."""
    events = instance_events.InstanceEvents()
    with events.expect(UUID, 'volume-reimaged', 'vol') as waiter:
        assert events.deliver(UUID, 'volume-reimaged', 'vol', 'completed')
        assert waiter.wait(0) == 'completed'


def test_a_wait_times_out():
    events = instance_events.InstanceEvents()
    with events.expect(UUID, 'volume-reimaged', 'vol') as waiter:
        started = time.monotonic()
        with pytest.raises(exception.EventTimeout, match='did not come '
                           'within 0.05 seconds'):
            waiter.wait(0.05)
        assert time.monotonic() - started >= 0.05


def test_events_no_one_waits_for_are_dropped():
    events = instance_events.InstanceEvents()
    assert not events.deliver(UUID, 'volume-reimaged', 'vol', 'completed')
    with events.expect(UUID, 'volume-reimaged', 'vol') as waiter:
        # Another tag, another server: not this waiter's.
        assert not events.deliver(UUID, 'volume-reimaged', 'other',
                                  'completed')
        assert not events.deliver('other', 'volume-reimaged', 'vol',
                                  'completed')
        with pytest.raises(exception.EventTimeout):
            waiter.wait(0)
    # After the block the event is not expected any more.
    assert not events.deliver(UUID, 'volume-reimaged', 'vol', 'completed')


def test_one_waiter_per_event():
    events = instance_events.InstanceEvents()
    with events.expect(UUID, 'volume-reimaged', 'vol'):
        with pytest.raises(exception.EventAlreadyExpected):
            with events.expect(UUID, 'volume-reimaged', 'vol'):
                pass
    with events.expect(UUID, 'volume-reimaged', 'vol'):
        pass


def test_a_stop_ends_every_wait():
    events = instance_events.InstanceEvents()
    with events.expect(UUID, 'volume-reimaged', 'vol') as waiter:
        threading.Timer(0.05, events.stop).start()
        started = time.monotonic()
        with pytest.raises(exception.ServiceStopping):
            waiter.wait(30)
        assert time.monotonic() - started < 5
    # And the waits that begin after it.
    with events.expect(UUID, 'volume-reimaged', 'vol') as waiter:
        with pytest.raises(exception.ServiceStopping):
            waiter.wait(30)


def test_a_start_after_a_stop_takes_waits_again():
    """A service stopped and started again (the same manager) waits for
    its events again."""
    events = instance_events.InstanceEvents()
    events.stop()
    events.start()
    with events.expect(UUID, 'volume-reimaged', 'vol') as waiter:
        threading.Timer(0.05, events.deliver,
                        (UUID, 'volume-reimaged', 'vol', 'completed')).start()
        assert waiter.wait(30) == 'completed'
