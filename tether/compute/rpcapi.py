"""Versioned RPC client of tether-compute (runs in the API process)."""

from oslo_config import cfg
import oslo_messaging as messaging

from tether.compute import exception as compute_exception
from tether.compute import version as compute_version
from tether import context as t_context
from tether.db.compute import service as db_services
from tether.objects import fields
from tether import rpc

CONF = cfg.CONF
TOPIC = 'tether-compute'
BINARY = fields.ServiceBinary.COMPUTE


def _oldest_service():
    """(RPC version, what) of the oldest tether-compute in the services
    table (by service version), or None if none has registered."""
    rows = db_services.get_all(t_context.get_admin_context(), binary=BINARY)
    if not rows:
        return None
    oldest = min(rows, key=lambda r: r.version or 0)
    return (compute_version.rpc_version_of(oldest.version),
            '%d (%s)' % (oldest.version or 0, oldest.host))


class ComputeAPI:
    """Client side of the compute manager's RPC API.

    API version history (tether.compute.version has the objects of each,
    and the RPC version of each service version):

    * 1.0 - build_and_run_instance, terminate_instance, start_instance,
            stop_instance, reboot_instance, attach_volume (a call),
            detach_volume, extend_volume; Instance 1.0
    * 1.1 - get_console_output (a call)
    * 1.2 - build_and_run_instance of servers from images (a local root
            disk, volumes made of images); Instance 1.1
    * 1.3 - rebuild_instance (re-images a volume-backed server's root
            volume with reimage_boot_volume), external_instance_event
    * 1.4 - allow_share, deny_share (casts)
    * 1.5 - rebuild_instance takes ``image``, the image the API read
            with the caller's token; Instance 1.4 (key_name, key_data)
    * 1.6 - pause_instance, unpause_instance, suspend_instance,
            resume_instance (casts); Instance 1.5 (locked_by,
            locked_reason; paused and suspended)
    * 1.7 - rescue_instance (with the rescue image's ID),
            unrescue_instance (casts); Instance 1.6 (rescued)
    * 1.8 - volume_snapshot_create, volume_snapshot_delete (casts: the
            assisted snapshots of a volume attached to the server)
    * 1.9 - snapshot_instance (cast: createImage of a server with a local
            root disk); build_and_run_instance makes volumes of snapshots
            and empty ones (same signature: the API picks a host of
            service version 11 for such a server)
    * 1.10 - build_and_run_instance of servers with a config drive;
            Instance 1.8 (config_drive)
    * 1.11 - extend_volume takes ``new_size`` (GiB), the size a waiting
            extend asks for, as the volume service sent it: the host does
            not read the volume for it
    """

    RPC_API_VERSION = compute_version.RPC_API_VERSION

    def __init__(self):
        target = messaging.Target(topic=TOPIC, version='1.0')
        # [upgrade_levels] compute: the newest version (and object
        # versions) the managers of this deployment all read.
        self.pin = rpc.version_pin('compute', BINARY,
                                   compute_version.RPC_OBJECT_VERSIONS,
                                   _oldest_service)
        self.client = rpc.get_client(
            target, pin=self.pin, timeout=CONF.rpc_response_timeout_compute)

    def _prepare(self, host, version='1.0'):
        return self.client.prepare(server=host, version=version)

    def _require(self, version, what):
        """Raise ServiceTooOld if the pin holds this client below
        ``version``: a manager older than it does not know ``what``."""
        if not self.client.can_send_version(version):
            raise compute_exception.ServiceTooOld(
                what=what, binary=BINARY, version=version,
                pinned=self.client.version_cap, option='compute')

    def check_image_builds(self):
        """ServiceTooOld while the pin holds this client below what a
        build from images needs (call it before anything is made)."""
        self._require('1.2', 'a server from an image')

    def check_snapshot_builds(self):
        """ServiceTooOld while the pin holds this client below what a
        build with volumes made of snapshots or empty needs."""
        self._require('1.9', 'a server with volumes made of snapshots '
                             'or empty')

    def check_snapshot_calls(self):
        """ServiceTooOld while the pin holds this client below
        snapshot_instance (1.9)."""
        self._require('1.9', 'a snapshot of a server with a local root '
                             'disk')

    def snapshot_instance(self, ctxt, instance, image_id, rotation=None):
        """Snapshot the local root disk of ``instance`` into the image
        ``image_id`` (queued; the host uploads its data); for a backup
        (``rotation`` not None), then keep the newest ``rotation`` backups
        of its type."""
        self._prepare(instance.host, '1.9').cast(
            ctxt, 'snapshot_instance', instance=instance, image_id=image_id,
            rotation=rotation)

    def check_config_drive(self):
        """ServiceTooOld while the pin holds this client below what a
        server with a config drive needs (call it before anything is
        made)."""
        self._require('1.10', 'a server with a config drive')

    def build_and_run_instance(self, ctxt, instance):
        # 1.10 for a server with a config drive, 1.2 for a server from
        # images (the API checked the pin first); 1.0 for a server of
        # volumes, which every host builds.
        version = next((v for v in ('1.10', '1.2')
                        if self.client.can_send_version(v)), '1.0')
        self._prepare(instance.host, version).cast(
            ctxt, 'build_and_run_instance', instance=instance)

    def terminate_instance(self, ctxt, instance):
        self._prepare(instance.host).cast(
            ctxt, 'terminate_instance', instance=instance)

    def start_instance(self, ctxt, instance):
        self._prepare(instance.host).cast(
            ctxt, 'start_instance', instance=instance)

    def stop_instance(self, ctxt, instance):
        self._prepare(instance.host).cast(
            ctxt, 'stop_instance', instance=instance)

    def reboot_instance(self, ctxt, instance, reboot_type):
        self._prepare(instance.host).cast(
            ctxt, 'reboot_instance', instance=instance,
            reboot_type=reboot_type)

    def check_pause_calls(self, what):
        """Raise ServiceTooOld if the pin holds this client below pause,
        unpause, suspend and resume (1.6): callers check before they
        change anything."""
        self._require('1.6', what)

    def _cast_1_6(self, ctxt, instance, method):
        self.check_pause_calls(method)
        self._prepare(instance.host, '1.6').cast(ctxt, method,
                                                 instance=instance)

    def pause_instance(self, ctxt, instance):
        self._cast_1_6(ctxt, instance, 'pause_instance')

    def unpause_instance(self, ctxt, instance):
        self._cast_1_6(ctxt, instance, 'unpause_instance')

    def suspend_instance(self, ctxt, instance):
        self._cast_1_6(ctxt, instance, 'suspend_instance')

    def resume_instance(self, ctxt, instance):
        self._cast_1_6(ctxt, instance, 'resume_instance')

    def check_rescue_calls(self, what):
        """Raise ServiceTooOld if the pin holds this client below rescue
        and unrescue (1.7): callers check before they change anything."""
        self._require('1.7', what)

    def rescue_instance(self, ctxt, instance, rescue_image_id):
        """Boot the server's guest from a rescue disk made of the image
        ``rescue_image_id``, its own disks after it."""
        self.check_rescue_calls('rescue_instance')
        self._prepare(instance.host, '1.7').cast(
            ctxt, 'rescue_instance', instance=instance,
            rescue_image_id=rescue_image_id)

    def unrescue_instance(self, ctxt, instance):
        self.check_rescue_calls('unrescue_instance')
        self._prepare(instance.host, '1.7').cast(
            ctxt, 'unrescue_instance', instance=instance)

    def attach_volume(self, ctxt, instance, volume_id):
        """Connect and hot-attach a reserved volume; returns its device."""
        try:
            return self._prepare(instance.host).call(
                ctxt, 'attach_volume', instance=instance,
                volume_id=volume_id)
        except messaging.RemoteError as exc:
            raise compute_exception.from_remote(exc)

    def get_console_output(self, ctxt, instance, tail_length):
        """The last ``tail_length`` lines (None: all) of what the guest
        wrote to its console, as text."""
        self._require('1.1', 'console output')
        return self._prepare(instance.host, '1.1').call(
            ctxt, 'get_console_output', instance=instance,
            tail_length=tail_length)

    def check_rebuild_calls(self, what):
        """Raise ServiceTooOld if the pin holds this client below the
        rebuild (1.3): callers check before they change anything."""
        self._require('1.3', what)

    def rebuild_instance(self, ctxt, instance, image_id,
                         reimage_boot_volume, image=None):
        """Rebuild the server with image ``image_id``; ``image``: that
        image as the API read it (a host before 1.5 reads it again)."""
        self._require('1.3', 'rebuild')
        version, kwargs = '1.3', {}
        if image is not None and self.client.can_send_version('1.5'):
            version, kwargs = '1.5', {'image': image}
        self._prepare(instance.host, version).cast(
            ctxt, 'rebuild_instance', instance=instance, image_id=image_id,
            reimage_boot_volume=reimage_boot_volume, **kwargs)

    def external_instance_event(self, ctxt, instance, name, tag, status):
        """An event another service sent, for the work on the host that
        waits for it."""
        self._require('1.3', 'the %s event' % name)
        self._prepare(instance.host, '1.3').cast(
            ctxt, 'external_instance_event', instance=instance, name=name,
            tag=tag, status=status)

    def check_share_calls(self):
        """Raise ServiceTooOld if the pin holds this client below the
        shares' calls (1.4): callers check before they change anything."""
        self._require('1.4', 'shares attached to servers')

    def allow_share(self, ctxt, instance, share_id):
        """Have the server's host granted access to a share being
        attached (its mapping is ``attaching``)."""
        self.check_share_calls()
        self._prepare(instance.host, '1.4').cast(
            ctxt, 'allow_share', instance=instance, share_id=share_id)

    def deny_share(self, ctxt, instance, share_id):
        """Have the server's host give up its access to a share being
        detached (its mapping is ``detaching``), unless another of its
        servers still uses it."""
        self.check_share_calls()
        self._prepare(instance.host, '1.4').cast(
            ctxt, 'deny_share', instance=instance, share_id=share_id)

    def check_volume_snapshot_calls(self, what):
        """Raise ServiceTooOld if the pin holds this client below the
        assisted volume snapshots (1.8): callers check first."""
        self._require('1.8', what)

    def volume_snapshot_create(self, ctxt, instance, volume_id, create_info):
        """Have the server's guest write its volume to the overlay
        ``create_info`` names; the host answers the volume service."""
        self.check_volume_snapshot_calls('volume_snapshot_create')
        self._prepare(instance.host, '1.8').cast(
            ctxt, 'volume_snapshot_create', instance=instance,
            volume_id=volume_id, create_info=create_info)

    def volume_snapshot_delete(self, ctxt, instance, volume_id, snapshot_id,
                               delete_info):
        """Have the server's host merge the files of a snapshot being
        deleted that ``delete_info`` names; it answers the volume
        service."""
        self.check_volume_snapshot_calls('volume_snapshot_delete')
        self._prepare(instance.host, '1.8').cast(
            ctxt, 'volume_snapshot_delete', instance=instance,
            volume_id=volume_id, snapshot_id=snapshot_id,
            delete_info=delete_info)

    def detach_volume(self, ctxt, instance, volume_id):
        self._prepare(instance.host).cast(
            ctxt, 'detach_volume', instance=instance, volume_id=volume_id)

    def can_send_extend_size(self):
        """Whether the pin lets extend_volume carry ``new_size`` (1.11);
        the caller checks the host's service version too."""
        return self.client.can_send_version('1.11')

    def extend_volume(self, ctxt, instance, volume_id, new_size=None):
        """Have the host make the guest see the volume's size; with
        ``new_size`` (1.11: the caller checked the pin and the host), the
        size of an extend that waits for it, which it need not read."""
        if new_size is None:
            self._prepare(instance.host).cast(
                ctxt, 'extend_volume', instance=instance,
                volume_id=volume_id)
            return
        self._prepare(instance.host, '1.11').cast(
            ctxt, 'extend_volume', instance=instance, volume_id=volume_id,
            new_size=new_size)


_client = None


def get():
    """The process's client of tether-compute, made on first use (again
    while ``[upgrade_levels] compute = auto`` finds no tether-compute)."""
    global _client
    if _client is None or not _client.pin.final:
        _client = ComputeAPI()
    return _client
