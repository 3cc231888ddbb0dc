"""The libvirt host: a connection per thread, capabilities, traits, stats."""

import collections
import dataclasses
import glob
import json
import os
import threading
import weakref

import libvirt
import os_traits
from oslo_log import log as logging

from tether.compute import exception
from tether.drivers.virt.libvirt import errors
from tether.drivers.virt.libvirt import guest as libvirt_guest

LOG = logging.getLogger(__name__)

# virtio-fs in libvirt: libvirt 6.2 and QEMU 5.0 (what Nova requires too).
MIN_LIBVIRT_VIRTIOFS = (6, 2, 0)
MIN_QEMU_VIRTIOFS = (5, 0, 0)
VIRTIOFSD_PATHS = ('/usr/lib/qemu/virtiofsd', '/usr/libexec/virtiofsd')
# Where QEMU's vhost-user descriptors live (docs/interop/vhost-user.json);
# libvirt finds virtiofsd through a descriptor of type "fs".
VHOST_USER_DIRS = ('/etc/qemu/vhost-user', '/usr/share/qemu/vhost-user')

KEEPALIVE_INTERVAL = 5   # seconds between keepalive probes
KEEPALIVE_COUNT = 3      # unanswered probes before the connection is closed


def version_tuple(number):
    """libvirt's version numbers: 9000000 is (9, 0, 0)."""
    return (number // 1000000, number // 1000 % 1000, number % 1000)


@dataclasses.dataclass(frozen=True)
class HostStats:
    """What a scheduler needs to know of a hypervisor host."""
    hostname: str
    cpu_arch: str
    vcpus: int
    memory_mb: int
    memory_mb_free: int
    hypervisor_type: str
    hypervisor_version: tuple
    libvirt_version: tuple


# One event loop per process, started before the first connection: it
# runs keepalive and close callbacks, so a dropped connection is noticed
# when it drops, not at the next call.
_event_loop_lock = threading.Lock()
_event_loop_started = False


def _run_event_loop():
    while True:
        libvirt.virEventRunDefaultImpl()


def start_event_loop():
    global _event_loop_started
    with _event_loop_lock:
        if _event_loop_started:
            return
        # Errors are raised as exceptions; do not also print them.
        libvirt.registerErrorHandler(lambda _ctx, _err: None, None)
        libvirt.virEventRegisterDefaultImpl()
        threading.Thread(target=_run_event_loop, name='libvirt-events',
                         daemon=True).start()
        _event_loop_started = True


def vhost_user_fs_descriptors(dirs=VHOST_USER_DIRS):
    """Paths of the vhost-user descriptors of type "fs" in ``dirs``."""
    found = []
    for d in dirs:
        for path in sorted(glob.glob(os.path.join(d, '*.json'))):
            try:
                with open(path) as f:
                    if json.load(f).get('type') == 'fs':
                        found.append(path)
            except (OSError, ValueError):
                LOG.warning('Unreadable vhost-user descriptor %s', path)
    return found


def virtiofsd_available(binaries=VIRTIOFSD_PATHS, dirs=VHOST_USER_DIRS):
    return (any(os.access(p, os.X_OK) for p in binaries)
            or bool(vhost_user_fs_descriptors(dirs)))


class _Connection:
    """The connection of one thread (in its ``threading.local``). When the
    thread ends, or the connection is replaced, it waits in ``_PENDING``
    for the next thread that asks for its connection to unregister its
    close callback (libvirt-python holds the connection for it); the
    connection then closes once its last domain is let go."""

    def __init__(self, conn):
        self.conn = conn
        # Only a note: a finalizer may run in any thread, the event loop's
        # too, where a libvirt call on the connection could wait for ever.
        weakref.finalize(self, _PENDING.append, conn).atexit = False


_PENDING = collections.deque()
# Connections let go of: libvirt may call the close callback of a closed
# connection as it is unregistered, which is no news.
_RELEASED = weakref.WeakSet()


def _release_pending():
    while True:
        try:
            conn = _PENDING.popleft()
        except IndexError:
            return
        _RELEASED.add(conn)
        try:
            conn.unregisterCloseCallback()
        except libvirt.libvirtError:
            pass    # already closed


class Host:
    """The hypervisor at ``uri``, through one connection per thread.

    libvirtd serves at most ``max_client_requests`` calls (5 by default) of
    one connection at a time and leaves the others unread until one ends.
    With one connection per process, guests starting in five threads (an
    RPC worker each) held every other call of the process (a define, a
    look-up, a heartbeat's stats) for as long as a QEMU start takes.
    Each thread has its own connection instead: a thread makes one call
    at a time, so no call waits behind another thread's. A connection
    that was closed (libvirtd restarted, keepalive timed out) is opened
    again on the thread's next call.
    """

    def __init__(self, uri='qemu:///system'):
        self.uri = uri
        self._local = threading.local()
        # Connections whose close callback came: libvirt may still call
        # them alive until a call fails.
        self._dead = weakref.WeakSet()

    # The connection ------------------------------------------------------

    def get_connection(self):
        """The calling thread's connection (opened on its first call)."""
        _release_pending()
        held = getattr(self._local, 'held', None)
        if (held is None or held.conn in self._dead or
                not self._alive(held.conn)):
            held = self._local.held = _Connection(self._connect())
        return held.conn

    @staticmethod
    def _alive(conn):
        try:
            return conn.isAlive() == 1
        except libvirt.libvirtError:
            return False

    def _connect(self):
        start_event_loop()
        LOG.debug('Connecting to %s', self.uri)
        try:
            conn = libvirt.open(self.uri)
        except libvirt.libvirtError as exc:
            raise exception.HypervisorUnavailable(
                uri=self.uri, reason=errors.message_of(exc),
                code=exc.get_error_code()) from exc
        conn.registerCloseCallback(self._closed, None)
        try:
            conn.setKeepAlive(KEEPALIVE_INTERVAL, KEEPALIVE_COUNT)
        except libvirt.libvirtError as exc:
            # Drivers that run in-process (test:///) have no keepalive.
            LOG.debug('No keepalive on %s: %s', self.uri, exc)
        return conn

    def _closed(self, conn, reason, _opaque):
        # Runs in the event loop thread; its thread opens another
        # connection on its next call.
        if conn in _RELEASED:
            return
        self._dead.add(conn)
        LOG.warning('Connection to %s closed (reason %s)', self.uri, reason)

    def forget_connection(self):
        """Drop the calling thread's connection after an error that says
        it is gone."""
        self._local.held = None

    def translated(self, instance_id=None):
        return errors.translated(instance_id, self.uri,
                                 on_lost=self.forget_connection)

    # Guests ----------------------------------------------------------------

    def define(self, xml, instance_id=None):
        """Define a persistent domain (not started) and return its Guest."""
        with self.translated(instance_id):
            dom = self.get_connection().defineXML(xml)
        return libvirt_guest.Guest(self, dom)

    def lookup(self, instance_uuid):
        """The Guest of ``instance_uuid``; InstanceNotFound if none."""
        with self.translated(instance_uuid):
            dom = self.get_connection().lookupByUUIDString(instance_uuid)
        return libvirt_guest.Guest(self, dom)

    def list_guests(self):
        with self.translated():
            doms = self.get_connection().listAllDomains(0)
        return [libvirt_guest.Guest(self, d) for d in doms]

    # What the host can do ----------------------------------------------

    def versions(self):
        """(libvirt version, hypervisor version) as tuples."""
        with self.translated():
            conn = self.get_connection()
            return (version_tuple(conn.getLibVersion()),
                    version_tuple(conn.getVersion()))

    def supports_virtiofs(self):
        lib, hv = self.versions()
        return (lib >= MIN_LIBVIRT_VIRTIOFS and hv >= MIN_QEMU_VIRTIOFS
                and virtiofsd_available())

    def traits(self, file_backed_memory_mb=0):
        """The host's capability traits (os-traits names), as a set."""
        found = set()
        if self.supports_virtiofs():
            found.add(os_traits.COMPUTE_STORAGE_VIRTIO_FS)
        if file_backed_memory_mb > 0:
            found.add(os_traits.COMPUTE_MEM_BACKING_FILE)
        return found

    def stats(self):
        with self.translated():
            conn = self.get_connection()
            arch, _numa_mb, cpus = conn.getInfo()[:3]
            # The whole host's memory (from /proc/meminfo), in KiB. The
            # memory of getInfo() is that of the NUMA cells, which leaves
            # out memory the kernel keeps in no node's count (6 of 24 GiB
            # on a VM here).
            mem = conn.getMemoryStats(libvirt.VIR_NODE_MEMORY_STATS_ALL_CELLS)
            memory_mb = mem['total'] // 1024
            free_mb = (mem['free'] + mem.get('buffers', 0)
                       + mem.get('cached', 0)) // 1024
            hostname = conn.getHostname()
            hv_type = conn.getType()
        lib, hv = self.versions()
        return HostStats(hostname=hostname, cpu_arch=arch, vcpus=cpus,
                         memory_mb=memory_mb, memory_mb_free=free_mb,
                         hypervisor_type=hv_type, hypervisor_version=hv,
                         libvirt_version=lib)
