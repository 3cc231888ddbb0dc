"""tether-compute's RPC endpoint for one hypervisor host."""

from oslo_concurrency import lockutils
from oslo_config import cfg
from oslo_log import log as logging
import oslo_messaging as messaging

from tether.compute.ops import console_output
from tether.compute.ops import image_cache
from tether.compute import instance_events
from tether.compute.ops import instance_actions
from tether.compute.ops import rebuild
from tether.compute.ops import recovery
from tether.compute.ops import rescue
from tether.compute.ops import server_actions
from tether.compute.ops import server_shares
from tether.compute.ops import server_images
from tether.compute.ops import servers
from tether.compute.ops import volume_attachments
from tether.compute.ops import volume_snapshots
from tether.compute import version as compute_version
from tether.drivers.virt import driver as virt_driver
from tether.objects import fields

CONF = cfg.CONF
LOG = logging.getLogger(__name__)

# What this tether-compute can do, recorded in its service record
# (tether.compute.version has the history).
SERVICE_VERSION = compute_version.SERVICE_VERSION
BINARY = fields.ServiceBinary.COMPUTE


def _per_instance(fn):
    """One operation at a time per instance on this host (a delete waits
    for the build it overtook to clean up)."""
    def wrapper(self, context, instance, *args, **kwargs):
        with lockutils.lock('tether-instance-%s' % instance.uuid):
            return fn(self, context, instance, *args, **kwargs)
    wrapper.__name__ = fn.__name__
    return wrapper


class ComputeManager:
    """Thin endpoint: each method records its event and runs one flow."""

    target = messaging.Target(version=compute_version.RPC_API_VERSION)
    RPC_API_VERSION = compute_version.RPC_API_VERSION

    def __init__(self, host, driver=None):
        self.host = host
        self.driver = driver or virt_driver.load_driver(
            CONF.compute_driver, CONF.libvirt, host,
            instances_path=CONF.instances_path,
            image_cache_subdirectory=CONF.image_cache.subdirectory_name)
        # Events other services send that work on this host waits for.
        self.events = instance_events.InstanceEvents()

    def init_host(self, context):
        self.driver.init_host()
        count = recovery.reconcile(context, self)
        if count:
            LOG.info('%s: reconciled %d instances left mid-operation',
                     self.host, count)

    def _event(self, context, instance, name):
        return instance_actions.recorded(context, instance.uuid,
                                         'compute_' + name, self.host)

    # RPC methods ------------------------------------------------------------

    @_per_instance
    def build_and_run_instance(self, context, instance):
        with self._event(context, instance, '_do_build_and_run_instance'):
            servers.build(context, self, instance)

    @_per_instance
    def terminate_instance(self, context, instance):
        with self._event(context, instance, 'terminate_instance'):
            servers.terminate(context, self, instance)

    @_per_instance
    def start_instance(self, context, instance):
        with self._event(context, instance, 'start_instance'):
            server_actions.start(context, self, instance)

    @_per_instance
    def stop_instance(self, context, instance):
        with self._event(context, instance, 'stop_instance'):
            server_actions.stop(context, self, instance, CONF.shutdown_timeout)

    @_per_instance
    def reboot_instance(self, context, instance, reboot_type):
        soft = (CONF.libvirt.wait_soft_reboot_seconds
                if reboot_type == 'SOFT' else None)
        with self._event(context, instance, 'reboot_instance'):
            server_actions.reboot(context, self, instance, instance.task_state,
                                  soft_timeout=soft)

    @_per_instance
    def pause_instance(self, context, instance):
        with self._event(context, instance, 'pause_instance'):
            server_actions.pause(context, self, instance)

    @_per_instance
    def unpause_instance(self, context, instance):
        with self._event(context, instance, 'unpause_instance'):
            server_actions.unpause(context, self, instance)

    @_per_instance
    def suspend_instance(self, context, instance):
        with self._event(context, instance, 'suspend_instance'):
            server_actions.suspend(context, self, instance)

    @_per_instance
    def resume_instance(self, context, instance):
        with self._event(context, instance, 'resume_instance'):
            server_actions.resume(context, self, instance)

    @_per_instance
    def rescue_instance(self, context, instance, rescue_image_id):
        with self._event(context, instance, 'rescue_instance'):
            rescue.rescue(context, self, instance, rescue_image_id)

    @_per_instance
    def unrescue_instance(self, context, instance):
        with self._event(context, instance, 'unrescue_instance'):
            rescue.unrescue(context, self, instance)

    @_per_instance
    def snapshot_instance(self, context, instance, image_id, rotation=None):
        event = ('snapshot_instance' if rotation is None
                 else 'backup_instance')
        with self._event(context, instance, event):
            server_images.snapshot(context, self, instance, image_id,
                                   rotation)

    @_per_instance
    def attach_volume(self, context, instance, volume_id):
        with self._event(context, instance, 'attach_volume'):
            return volume_attachments.attach(context, self, instance,
                                             volume_id)

    @_per_instance
    def detach_volume(self, context, instance, volume_id):
        with self._event(context, instance, 'detach_volume'):
            volume_attachments.detach(context, self, instance, volume_id)

    @_per_instance
    def extend_volume(self, context, instance, volume_id, new_size=None):
        # new_size from 1.11: the size of the extend that waits for this
        # host, as the volume service sent it with volume-extended.
        with self._event(context, instance, 'extend_volume'):
            volume_attachments.extend(context, self, instance, volume_id,
                                      new_size=new_size)

    @_per_instance
    def volume_snapshot_create(self, context, instance, volume_id,
                               create_info):
        # The volume service's request, not the user's: no instance
        # action (Nova records none either).
        volume_snapshots.create(context, self, instance, volume_id,
                                create_info)

    @_per_instance
    def volume_snapshot_delete(self, context, instance, volume_id,
                               snapshot_id, delete_info):
        volume_snapshots.delete(context, self, instance, volume_id,
                                snapshot_id, delete_info)

    @_per_instance
    def rebuild_instance(self, context, instance, image_id,
                         reimage_boot_volume, image=None):
        with self._event(context, instance, 'rebuild_instance'):
            rebuild.rebuild(context, self, instance, image_id,
                            reimage_boot_volume, image=image)

    @_per_instance
    def allow_share(self, context, instance, share_id):
        with self._event(context, instance, 'allow_share'):
            server_shares.allow(context, self, instance, share_id)

    @_per_instance
    def deny_share(self, context, instance, share_id):
        with self._event(context, instance, 'deny_share'):
            server_shares.deny(context, self, instance, share_id)

    def external_instance_event(self, context, instance, name, tag,
                                status):
        # No lock: the work that waits for the event holds it.
        self.events.deliver(instance.uuid, name, tag, status)

    def get_console_output(self, context, instance, tail_length):
        # A read: no instance action, and no wait for the lock of a
        # running operation (a stop may take shutdown_timeout).
        return console_output.get(context, self, instance, tail_length)

    # The host -------------------------------------------------------------

    def manage_image_cache(self, context):
        """The image cache manager's periodic task (not an RPC method)."""
        return image_cache.manage(context, self)

    def host_stats(self):
        return self.driver.get_host_stats()

    def traits(self):
        return self.driver.get_traits()
