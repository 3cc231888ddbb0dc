"""Power off of a libvirt guest: the ACPI power button, pressed until the
guest OS answers or the timeout runs out, then destroy.

The domain is a stand-in for libvirt's (a process edge): it records the
calls and powers off after as many presses as its guest OS needs (never,
for a guest without an OS). Its connection delivers the domain's
lifecycle events as libvirt's event loop does (from another thread), or,
with ``events=False``, cannot register for them.
"""

import threading
import time

import libvirt
import pytest

from tether.compute import exception
from tether.drivers.virt.libvirt import guest as libvirt_guest
from tether.drivers.virt.libvirt import host as libvirt_host

UUID = '6c1bb3e7-5b1a-4c0e-9d6a-1f4f3c2b9a10'


def _error(code):
    err = libvirt.libvirtError('stand-in')
    err.err = (code, libvirt.VIR_FROM_DOMAIN, 'Requested operation is not '
               'valid: domain is not running', 2, None, None, None, 0, 0)
    return err


class Connection:
    """The domain's connection: lifecycle callbacks, run from a thread of
    their own as libvirt's event loop runs them."""

    def __init__(self, events):
        self.events = events
        self.callbacks = {}

    def domainEventRegisterAny(self, dom, event_id, callback, opaque):
        if not self.events:
            raise _error(libvirt.VIR_ERR_NO_SUPPORT)
        assert event_id == libvirt.VIR_DOMAIN_EVENT_ID_LIFECYCLE
        key = len(self.callbacks) + 1
        self.callbacks[key] = (dom, callback, opaque)
        return key

    def domainEventDeregisterAny(self, key):
        del self.callbacks[key]

    def emit(self, event):
        for dom, callback, opaque in list(self.callbacks.values()):
            threading.Thread(target=callback, args=(
                self, dom, event, 0, opaque)).start()


class Domain:
    """A running domain whose OS powers off at the ``presses_needed``-th
    press of the power button (None: never), ``delay`` s after it."""

    def __init__(self, presses_needed=None, active=True, events=True,
                 delay=0):
        self.presses_needed = presses_needed
        self.active = active
        self.delay = delay
        self.calls = []
        self.conn = Connection(events)

    def connect(self):
        return self.conn

    def _power_off_later(self):
        def off():
            time.sleep(self.delay)
            self.active = False
            self.conn.emit(libvirt.VIR_DOMAIN_EVENT_STOPPED)
        threading.Thread(target=off).start()

    def UUIDString(self):
        return UUID

    def name(self):
        return 'instance-' + UUID

    def isActive(self):
        self.looks = getattr(self, 'looks', 0) + 1
        return 1 if self.active else 0

    def shutdownFlags(self, flags):
        self.calls.append(('press', flags))
        if not self.active:
            raise _error(libvirt.VIR_ERR_OPERATION_INVALID)
        presses = sum(1 for c in self.calls if c[0] == 'press')
        if self.presses_needed is not None and \
                presses == self.presses_needed:
            if self.delay:
                self._power_off_later()
            else:
                self.active = False

    def destroy(self):
        self.calls.append(('destroy',))
        if not self.active:
            raise _error(libvirt.VIR_ERR_OPERATION_INVALID)
        self.active = False


@pytest.fixture(autouse=True)
def fast_polls(monkeypatch):
    monkeypatch.setattr(libvirt_guest, 'SHUTDOWN_POLL_INTERVAL', 0.001)


def _guest(domain):
    return libvirt_guest.Guest(libvirt_host.Host('test:///default'), domain)


PRESS = ('press', libvirt.VIR_DOMAIN_SHUTDOWN_ACPI_POWER_BTN)


def test_a_guest_os_that_answers_powers_itself_off():
    domain = Domain(presses_needed=1)
    assert _guest(domain).shutdown(timeout=30) is True
    assert domain.calls == [PRESS]


def test_the_button_is_pressed_again_until_the_os_answers():
    # A guest still booting at the first press misses it.
    domain = Domain(presses_needed=3)
    assert _guest(domain).shutdown(timeout=30, retry_interval=0.01) is True
    assert domain.calls == [PRESS] * 3


def test_a_guest_without_an_os_is_destroyed_after_the_timeout():
    domain = Domain(presses_needed=None)
    assert _guest(domain).shutdown(timeout=0.1, retry_interval=0.04) is False
    assert domain.calls[-1] == ('destroy',)
    presses = domain.calls[:-1]
    assert set(presses) == {PRESS} and 2 <= len(presses) <= 4
    assert not domain.active


def test_the_wait_ends_on_the_lifecycle_event(monkeypatch):
    # Not by looking again and again (every millisecond here, were it
    # polling): the guest is looked at before the press and once the
    # event came. Were the event not heard, the next look would come
    # after a minute, past the 30 s timeout: it would be destroyed.
    monkeypatch.setattr(libvirt_guest, 'SHUTDOWN_LOOK_INTERVAL', 60)
    domain = Domain(presses_needed=1, delay=0.05)
    assert _guest(domain).shutdown(timeout=30) is True
    assert domain.calls == [PRESS]
    assert domain.looks == 2
    assert domain.conn.callbacks == {}


def test_without_events_the_guest_is_looked_at_often(monkeypatch):
    # A connection that gives no events (registering fails) falls back to
    # looking every SHUTDOWN_POLL_INTERVAL (here 1 ms).
    monkeypatch.setattr(libvirt_guest, 'SHUTDOWN_LOOK_INTERVAL', 60)
    domain = Domain(presses_needed=1, delay=0.05, events=False)
    assert _guest(domain).shutdown(timeout=30) is True
    assert domain.calls == [PRESS]


def test_the_callback_goes_when_the_guest_is_destroyed():
    domain = Domain(presses_needed=None)
    assert _guest(domain).shutdown(timeout=0.05, retry_interval=10) is False
    assert domain.calls == [PRESS, ('destroy',)]
    assert domain.conn.callbacks == {}


def test_timeout_zero_destroys_at_once():
    domain = Domain(presses_needed=1)
    assert _guest(domain).shutdown(timeout=0) is False
    assert domain.calls == [('destroy',)]


def test_a_guest_that_is_off_already_is_left_alone():
    domain = Domain(active=False)
    assert _guest(domain).shutdown(timeout=30) is False
    assert domain.calls == []


def test_a_guest_that_powers_off_as_the_button_is_pressed():
    # It went off between the check and the press: libvirt says it is
    # not running, which is what was asked for.
    domain = Domain(presses_needed=1)
    guest = _guest(domain)
    domain.active = False
    assert guest._press_power_button() is False


def test_destroy_of_a_guest_that_just_went_off():
    class Racing(Domain):
        def isActive(self):
            # Running when asked, off when destroyed.
            active, self.active = self.active, False
            return 1 if active else 0
    domain = Racing()
    _guest(domain).destroy()
    assert domain.calls == [('destroy',)]


def test_a_failed_press_of_a_running_guest_is_an_error():
    class Refusing(Domain):
        def shutdownFlags(self, flags):
            raise _error(libvirt.VIR_ERR_INTERNAL_ERROR)
    with pytest.raises(exception.VirtError):
        _guest(Refusing()).shutdown(timeout=30)
