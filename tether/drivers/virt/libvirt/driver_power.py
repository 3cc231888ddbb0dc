"""The power methods of the libvirt driver (LibvirtDriver): power on and
off, reboot (soft: the ACPI power button first), pause and unpause,
suspend (libvirt's managed save) and resume."""

from oslo_log import log as logging

LOG = logging.getLogger(__name__)


class PowerMixin:
    """The methods of LibvirtDriver that change a guest's power state;
    they use its ``host`` (the libvirt Host), ``_lock`` (one change of a
    guest at a time) and ``_define_shares`` (driver_shares)."""

    def power_on(self, instance_uuid, shares=()):
        with self._lock(instance_uuid):
            guest = self.host.lookup(instance_uuid)
            if not guest.is_active():
                self._define_shares(guest, shares)
                guest.start()

    def power_off(self, instance_uuid, timeout=0):
        guest = self.host.lookup(instance_uuid)
        if guest.shutdown(timeout):
            LOG.info('%r powered itself off when asked', guest)

    def reboot(self, instance_uuid, shares=(), soft_timeout=None):
        # A new QEMU process from the persistent definition. A soft reboot
        # (``soft_timeout``: seconds) first asks a running guest's OS to
        # power off, as a stop does, and powers it off at once when the
        # time is up (Nova's fallback to a hard reboot).
        with self._lock(instance_uuid):
            guest = self.host.lookup(instance_uuid)
            if soft_timeout is not None and guest.is_active():
                if guest.shutdown(soft_timeout):
                    LOG.info('%r powered itself off for a soft reboot',
                             guest)
            else:
                guest.destroy()
            # A suspended guest boots, as Nova's hard reboot does.
            guest.forget_saved_memory()
            self._define_shares(guest, shares)
            guest.start()

    def pause(self, instance_uuid):
        with self._lock(instance_uuid):
            self.host.lookup(instance_uuid).pause()

    def unpause(self, instance_uuid):
        with self._lock(instance_uuid):
            self.host.lookup(instance_uuid).unpause()

    def suspend(self, instance_uuid):
        with self._lock(instance_uuid):
            self.host.lookup(instance_uuid).save()

    def resume(self, instance_uuid):
        with self._lock(instance_uuid):
            guest = self.host.lookup(instance_uuid)
            if not guest.is_active():
                # The start restores the saved memory (and removes the
                # file).
                guest.start()
