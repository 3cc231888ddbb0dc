"""One libvirt domain: power, devices and block jobs, in tether's terms."""

import contextlib
import threading
import time

import libvirt
from oslo_log import log as logging

from tether.compute import exception
from tether.drivers.virt.libvirt import parse
from tether.drivers.virt.libvirt import qemu_log
from tether.drivers.virt.power_state import PowerState

LOG = logging.getLogger(__name__)

# While a guest is asked to power off, the ACPI power button is pressed
# again every SHUTDOWN_RETRY_INTERVAL seconds (as Nova does: a guest that
# was still booting at the first press had no handler for it yet). The
# wait ends on libvirt's lifecycle event of the domain (run by the host's
# event loop), so a stop or a rebuild waits no longer than the guest
# takes; whether it is off is also looked at every SHUTDOWN_LOOK_INTERVAL
# seconds in case an event is lost, and every SHUTDOWN_POLL_INTERVAL
# seconds where the connection gives no events.
SHUTDOWN_RETRY_INTERVAL = 10
SHUTDOWN_LOOK_INTERVAL = 0.5
SHUTDOWN_POLL_INTERVAL = 0.02
# How often a block job (a commit or a pull of a volume's snapshot) is
# looked at: the small ones of a volume's snapshot take about 0.1 s.
BLOCK_JOB_POLL_INTERVAL = 0.05

_POWER_STATES = {
    libvirt.VIR_DOMAIN_NOSTATE: PowerState.NOSTATE,
    libvirt.VIR_DOMAIN_RUNNING: PowerState.RUNNING,
    libvirt.VIR_DOMAIN_BLOCKED: PowerState.RUNNING,
    libvirt.VIR_DOMAIN_PAUSED: PowerState.PAUSED,
    libvirt.VIR_DOMAIN_SHUTDOWN: PowerState.SHUTDOWN,
    libvirt.VIR_DOMAIN_SHUTOFF: PowerState.SHUTDOWN,
    libvirt.VIR_DOMAIN_CRASHED: PowerState.CRASHED,
    libvirt.VIR_DOMAIN_PMSUSPENDED: PowerState.SUSPENDED,
}


class Guest:
    """A libvirt domain. Every method raises tether exceptions only."""

    def __init__(self, host, domain):
        self.host = host
        self._domain = domain
        self.uuid = domain.UUIDString()
        self.name = domain.name()

    def __repr__(self):
        return '<Guest %s %s>' % (self.name, self.uuid)

    def _translated(self):
        return self.host.translated(self.uuid)

    # Power -----------------------------------------------------------------

    def power_state(self):
        with self._translated():
            state, _reason = self._domain.state()
        return _POWER_STATES.get(state, PowerState.NOSTATE)

    def is_active(self):
        with self._translated():
            return self._domain.isActive() == 1

    def start(self):
        """Start the guest from its persistent definition.

        If QEMU ended while it started, the error has QEMU's reason from
        its log when libvirt's message does not (see qemu_log).
        """
        try:
            with self._translated():
                self._domain.create()
        except exception.VirtError as exc:
            said = exc.kwargs.get('reason') or str(exc)
            why = qemu_log.why_it_stopped(self.host.uri, self.name)
            if not why or why[0] in said:
                raise
            raise exception.VirtError(
                reason='%s; QEMU said: %s' % (said, ' '.join(why)),
                code=exc.code) from exc

    def destroy(self):
        """Power off at once (the QEMU process ends); no-op if it is off."""
        try:
            with self._translated():
                if self._domain.isActive():
                    self._domain.destroy()
        except exception.VirtError:
            # It may have powered itself off between the two calls.
            if self.is_active():
                raise

    def _press_power_button(self):
        """Send the ACPI power button; False if the guest is off already."""
        try:
            with self._translated():
                self._domain.shutdownFlags(
                    libvirt.VIR_DOMAIN_SHUTDOWN_ACPI_POWER_BTN)
        except exception.VirtError:
            if not self.is_active():
                return False
            raise
        return True

    @contextlib.contextmanager
    def _lifecycle_events(self):
        """An Event set when libvirt reports a lifecycle event of this
        domain (it started, stopped, shut down...), and how often to look
        without one: SHUTDOWN_LOOK_INTERVAL, or SHUTDOWN_POLL_INTERVAL
        where the connection cannot deliver events."""
        changed = threading.Event()
        try:
            conn = self._domain.connect()
            callback = conn.domainEventRegisterAny(
                self._domain, libvirt.VIR_DOMAIN_EVENT_ID_LIFECYCLE,
                lambda *_args: changed.set(), None)
        except libvirt.libvirtError as exc:
            LOG.debug('No lifecycle events of %r (%s); looking every %s s',
                      self, exc, SHUTDOWN_POLL_INTERVAL)
            yield changed, SHUTDOWN_POLL_INTERVAL
            return
        try:
            yield changed, SHUTDOWN_LOOK_INTERVAL
        finally:
            try:
                conn.domainEventDeregisterAny(callback)
            except libvirt.libvirtError as exc:
                # The connection is gone: so is the callback.
                LOG.debug('Lifecycle events of %r: %s', self, exc)

    def shutdown(self, timeout, retry_interval=SHUTDOWN_RETRY_INTERVAL):
        """Power off, cleanly if the guest OS does it.

        Press the ACPI power button and wait up to ``timeout`` s for the
        guest OS to power off, pressing it again every ``retry_interval``
        s (a guest that is still booting may miss the first press); then,
        or at once with ``timeout`` 0, :meth:`destroy` it. A guest without
        an OS never answers and costs the whole timeout. Returns True if
        the guest powered itself off.
        """
        if timeout <= 0 or not self.is_active():
            self.destroy()
            return False
        start = time.monotonic()
        deadline = start + timeout
        next_press = start
        with self._lifecycle_events() as (changed, look):
            while True:
                now = time.monotonic()
                if now >= deadline:
                    break
                if now >= next_press:
                    if not self._press_power_button():
                        return True
                    next_press = now + retry_interval
                changed.wait(min(look, deadline - now, next_press - now))
                changed.clear()
                if not self.is_active():
                    LOG.debug('%r powered off %.3f s after it was asked',
                              self, time.monotonic() - start)
                    return True
        LOG.info('%r did not power off in %s s; destroying it', self,
                 timeout)
        self.destroy()
        return False

    def pause(self):
        """Stop the vCPUs of the running guest (libvirt's suspend)."""
        with self._translated():
            self._domain.suspend()

    def unpause(self):
        """Run the vCPUs of the paused guest again (libvirt's resume)."""
        with self._translated():
            self._domain.resume()

    def save(self):
        """Save the guest's memory to a file libvirt keeps for it and end
        its QEMU process (managed save); :meth:`start` restores it."""
        with self._translated():
            self._domain.managedSave(0)

    def has_saved_memory(self):
        with self._translated():
            return bool(self._domain.hasManagedSaveImage(0))

    def forget_saved_memory(self):
        """Remove the memory a :meth:`save` left, so that the next start
        boots the guest."""
        if self.has_saved_memory():
            with self._translated():
                self._domain.managedSaveRemove(0)

    def delete(self):
        """Destroy the guest and remove its definition."""
        self.destroy()
        with self._translated():
            self._domain.undefineFlags(
                libvirt.VIR_DOMAIN_UNDEFINE_MANAGED_SAVE
                | libvirt.VIR_DOMAIN_UNDEFINE_NVRAM)

    # XML -------------------------------------------------------------------

    def xml(self, inactive=False):
        """The live definition, or the persistent one with ``inactive``."""
        flags = libvirt.VIR_DOMAIN_XML_INACTIVE if inactive else 0
        with self._translated():
            return self._domain.XMLDesc(flags)

    def disks(self, inactive=False):
        return parse.disks(self.xml(inactive))

    def used_disk_targets(self):
        """Disk names in the live or the persistent definition."""
        names = {d.target for d in self.disks(inactive=True)}
        if self.is_active():
            names |= {d.target for d in self.disks()}
        return names

    # Devices ---------------------------------------------------------------

    def _affect_flags(self):
        # A running guest changes now and in its definition; a stopped one
        # only in its definition (LIVE on an inactive domain is an error).
        if self.is_active():
            return (libvirt.VIR_DOMAIN_AFFECT_LIVE
                    | libvirt.VIR_DOMAIN_AFFECT_CONFIG)
        return libvirt.VIR_DOMAIN_AFFECT_CONFIG

    def attach_device(self, device_xml):
        flags = self._affect_flags()
        with self._translated():
            self._domain.attachDeviceFlags(device_xml, flags)

    def detach_disk(self, device_xml, target):
        """Detach the disk named ``target``; raise if it stays attached.

        A disk on virtio-scsi is gone when the call returns; a disk the
        guest OS must release (virtio-blk) would still be listed, which is
        an error here rather than a silent success.
        """
        flags = self._affect_flags()
        with self._translated():
            self._domain.detachDeviceFlags(device_xml, flags)
        left = [d for d in self.disks(inactive=True) if d.target == target]
        if flags & libvirt.VIR_DOMAIN_AFFECT_LIVE:
            left += [d for d in self.disks() if d.target == target]
        if left:
            raise exception.VirtError(
                reason='disk %s of %r is still attached after its detach'
                       % (target, self))

    # Block devices ---------------------------------------------------------

    def block_info(self, target):
        """Capacity of disk ``target`` in bytes, as QEMU sees it."""
        with self._translated():
            capacity, _allocation, _physical = self._domain.blockInfo(target)
        return capacity

    def block_resize(self, target, size_bytes, file_size=None):
        """Grow disk ``target`` of the running guest to ``size_bytes``.

        QEMU would shrink a disk without a word, so a smaller size is
        refused here: smaller than ``file_size`` (the size of a raw
        disk's file, which the caller read: QEMU is not asked), or than
        the capacity QEMU reports. The same capacity is a no-op.
        """
        current = self.block_info(target) if file_size is None \
            else file_size
        if size_bytes < current:
            raise exception.InvalidBlockResize(
                device=target, instance_id=self.uuid, requested=size_bytes,
                reason='it is %s bytes; shrinking is refused' % current)
        if size_bytes == current and file_size is None:
            return
        with self._translated():
            self._domain.blockResize(
                target, size_bytes, libvirt.VIR_DOMAIN_BLOCK_RESIZE_BYTES)

    # Snapshots of disks (assisted volume snapshots) ------------------------

    def snapshot_disk(self, target, new_path, others):
        """Make the existing qcow2 ``new_path`` (whose backing file is the
        disk's file now) the file disk ``target`` writes to: an external,
        disk-only snapshot without metadata, live if the guest runs, in
        its definition either way; ``others``, the guest's other disks,
        are left as they are."""
        disks = ["<disk name='%s' snapshot='external' type='file'>"
                 "<source file='%s'/><driver type='qcow2'/></disk>"
                 % (_attr(target), _attr(new_path))]
        disks += ["<disk name='%s' snapshot='no'/>" % _attr(other)
                  for other in others]
        xml = ('<domainsnapshot><disks>%s</disks></domainsnapshot>'
               % ''.join(disks))
        flags = (libvirt.VIR_DOMAIN_SNAPSHOT_CREATE_DISK_ONLY
                 | libvirt.VIR_DOMAIN_SNAPSHOT_CREATE_NO_METADATA
                 | libvirt.VIR_DOMAIN_SNAPSHOT_CREATE_REUSE_EXT)
        with self._translated():
            self._domain.snapshotCreateXML(xml, flags)

    def block_commit(self, target, base, top):
        """Start merging ``top`` (a backing file of disk ``target``, not
        the one written) into ``base``, the file below it; the file above
        ``top`` is then backed by ``base``, named relatively."""
        with self._translated():
            self._domain.blockCommit(
                target, base, top, 0,
                libvirt.VIR_DOMAIN_BLOCK_COMMIT_RELATIVE)

    def block_pull(self, target, base):
        """Start copying into the file disk ``target`` writes to the data
        of its backing files above ``base``, which becomes its backing
        file (named relatively); None: of all of them, and it has none."""
        flags = libvirt.VIR_DOMAIN_BLOCK_REBASE_RELATIVE if base else 0
        with self._translated():
            self._domain.blockRebase(target, base, 0, flags)

    def wait_block_job(self, target, poll=BLOCK_JOB_POLL_INTERVAL):
        """Wait until disk ``target`` has no block job (libvirt ends a
        commit of a backing file and a pull by itself); raise VirtError
        if the guest stopped before."""
        while True:
            with self._translated():
                job = self._domain.blockJobInfo(target, 0)
            if not job:
                return
            if not self.is_active():
                raise exception.VirtError(
                    reason='%r stopped during a block job on %s'
                           % (self, target))
            time.sleep(poll)


def _attr(value):
    """``value`` quoted for an XML attribute between single quotes."""
    return (value.replace('&', '&amp;').replace('<', '&lt;')
            .replace("'", '&apos;'))
