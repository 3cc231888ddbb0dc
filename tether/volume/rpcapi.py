"""Versioned RPC client of tether-volume (runs in the API process)."""

from oslo_config import cfg
import oslo_messaging as messaging
from oslo_utils import versionutils

from tether import context as t_context
from tether.db.volume import service as db_services
from tether.objects import fields
from tether import rpc
from tether.volume import exception
from tether.volume import version as volume_version

CONF = cfg.CONF
TOPIC = 'tether-volume'
BINARY = fields.ServiceBinary.VOLUME


def _oldest_service():
    """(RPC version, what) of the oldest tether-volume in the services
    table, or None if none has registered."""
    rows = db_services.get_all(t_context.get_admin_context(), binary=BINARY)
    if not rows:
        return None
    oldest = min(rows, key=lambda r: versionutils.convert_version_to_tuple(
        volume_version.rpc_version_of(r.rpc_current_version)))
    found = volume_version.rpc_version_of(oldest.rpc_current_version)
    return found, '%s (%s)' % (found, oldest.host)


class VolumeAPI:
    """Client side of the volume manager's RPC API.

    API version history (tether.volume.version has the objects of each):

    * 1.0 - create_volume, delete_volume, extend_volume
    * 1.1 - attachment_update, attachment_delete (synchronous calls);
            Volume 1.1 (its attachments), Attachment 1.0
    * 1.2 - create_volume of a volume made from an image (its
            image_metadata names it); Volume 1.2
    * 1.3 - copy_volume_to_image, reimage (casts)
    * 1.4 - create_volume and reimage take ``image``, the image the API
            read with the caller's token
    * 1.5 - create_snapshot, delete_snapshot (casts); create_volume of a
            volume made of a snapshot or a volume; Snapshot 1.0, Volume
            1.3
    * 1.6 - get_backup_device (a synchronous call, of tether-backup)
    * 1.7 - create_group_snapshot, delete_group_snapshot (casts to the
            backend of the group); Volume 1.4 (group_id), Snapshot 1.1
            (group_snapshot_id)
    * 1.8 - revert_to_snapshot (a cast)
    """

    RPC_API_VERSION = volume_version.RPC_API_VERSION

    def __init__(self):
        target = messaging.Target(topic=TOPIC, version='1.0')
        # [upgrade_levels] volume: the newest version (and object
        # versions) the managers of this deployment all read.
        self.pin = rpc.version_pin('volume', BINARY,
                                   volume_version.RPC_OBJECT_VERSIONS,
                                   _oldest_service)
        self.client = rpc.get_client(
            target, pin=self.pin, timeout=CONF.rpc_response_timeout_volume)

    def _prepare(self, volume, version='1.0'):
        return self.client.prepare(server=volume.backend_host,
                                   version=version)

    def check_attachment_calls(self, what):
        """Raise ServiceTooOld if the pin holds this client below the
        attachment calls (1.1): callers check before they change anything,
        so a refused request leaves nothing behind."""
        self._require('1.1', what)

    def check_image_calls(self, what):
        """Raise ServiceTooOld if the pin holds this client below the
        managers that make volumes from images (1.2)."""
        self._require('1.2', what)

    def check_image_actions(self, what):
        """Raise ServiceTooOld if the pin holds this client below the
        managers that upload volumes to images and re-image them (1.3)."""
        self._require('1.3', what)

    def check_snapshot_calls(self, what):
        """Raise ServiceTooOld if the pin holds this client below the
        managers that take and delete snapshots (1.5)."""
        self._require('1.5', what)

    def check_backup_calls(self, what):
        """Raise ServiceTooOld if the pin holds this client below the
        managers that say where a volume's data is for tether-backup
        (1.6)."""
        self._require('1.6', what)

    def check_group_snapshot_calls(self, what):
        """Raise ServiceTooOld if the pin holds this client below the
        managers that take and delete group snapshots (1.7)."""
        self._require('1.7', what)

    def _require(self, version, what):
        """Raise ServiceTooOld if the pin holds this client below
        ``version``: a manager older than it does not know ``what``."""
        if not self.client.can_send_version(version):
            raise exception.ServiceTooOld(
                what=what, binary=BINARY, version=version,
                pinned=self.client.version_cap, option='volume')

    def create_volume(self, ctxt, volume, image=None):
        """Make the volume; ``image``: the image it is made of, as the
        API read it (a manager before 1.4 reads it again)."""
        # A manager before 1.2 would make an empty volume of one that
        # names an image (check_image_calls refused it).
        version = '1.2' if volume.image_id else '1.0'
        kwargs = {}
        if image is not None and self.client.can_send_version('1.4'):
            version, kwargs = '1.4', {'image': image}
        if volume.snapshot_id or volume.source_volid:
            # A manager before 1.5 would make it empty (the API's
            # check_snapshot_calls refused it).
            version = '1.5'
        self._prepare(volume, version).cast(ctxt, 'create_volume',
                                            volume=volume, **kwargs)

    def delete_volume(self, ctxt, volume):
        self._prepare(volume).cast(ctxt, 'delete_volume', volume=volume)

    def extend_volume(self, ctxt, volume, new_size, reservations):
        self._prepare(volume).cast(ctxt, 'extend_volume', volume=volume,
                                   new_size=new_size,
                                   reservations=reservations)

    def copy_volume_to_image(self, ctxt, volume, image):
        """Upload the volume into ``image`` (id, name, disk and container
        format of the image the API created)."""
        self._require('1.3', 'uploading a volume to an image')
        self._prepare(volume, '1.3').cast(ctxt, 'copy_volume_to_image',
                                          volume=volume, image=image)

    def reimage(self, ctxt, volume, image_id, image=None):
        """Write image ``image_id`` over the volume (claimed
        ``downloading``); ``image``: that image as the API read it (a
        manager before 1.4 reads it again)."""
        self._require('1.3', 're-imaging a volume')
        version, kwargs = '1.3', {}
        if image is not None and self.client.can_send_version('1.4'):
            version, kwargs = '1.4', {'image': image}
        self._prepare(volume, version).cast(ctxt, 'reimage', volume=volume,
                                            image_id=image_id, **kwargs)

    def create_snapshot(self, ctxt, volume, snapshot):
        self._require('1.5', 'taking a snapshot')
        self._prepare(volume, '1.5').cast(ctxt, 'create_snapshot',
                                          volume=volume, snapshot=snapshot)

    def delete_snapshot(self, ctxt, volume, snapshot):
        self._require('1.5', 'deleting a snapshot')
        self._prepare(volume, '1.5').cast(ctxt, 'delete_snapshot',
                                          volume=volume, snapshot=snapshot)

    def create_group_snapshot(self, ctxt, group, group_snapshot_id):
        """Take the snapshots of the group snapshot (on the group's
        backend)."""
        self._require('1.7', 'taking a group snapshot')
        self._prepare(group, '1.7').cast(
            ctxt, 'create_group_snapshot',
            group_snapshot_id=group_snapshot_id)

    def delete_group_snapshot(self, ctxt, group, group_snapshot_id):
        self._require('1.7', 'deleting a group snapshot')
        self._prepare(group, '1.7').cast(
            ctxt, 'delete_group_snapshot',
            group_snapshot_id=group_snapshot_id)

    def check_revert(self):
        """Raise ServiceTooOld before a revert claims anything if the pin
        holds this client below revert_to_snapshot (1.8)."""
        self._require('1.8', 'reverting a volume to a snapshot')

    def revert_to_snapshot(self, ctxt, volume, snapshot):
        """Revert the volume (claimed ``reverting``) to its latest
        snapshot (claimed ``restoring``)."""
        self._require('1.8', 'reverting a volume to a snapshot')
        self._prepare(volume, '1.8').cast(ctxt, 'revert_to_snapshot',
                                          volume=volume, snapshot=snapshot)

    def get_backup_device(self, ctxt, volume, snapshot=None):
        """Where the data of the volume (or of its ``snapshot``) is, for
        tether-backup to read, or to write a restore into: the
        connection info of the backend (share, file, format)."""
        self._require('1.6', 'backing up or restoring a volume')
        return self._prepare(volume, '1.6').call(
            ctxt, 'get_backup_device', volume=volume, snapshot=snapshot)

    def attachment_update(self, ctxt, volume, connector, attachment_id):
        """Connect the attachment; returns the connection info."""
        self._require('1.1', 'connecting an attachment')
        return self._prepare(volume, '1.1').call(
            ctxt, 'attachment_update', volume=volume, connector=connector,
            attachment_id=attachment_id)

    def attachment_delete(self, ctxt, volume, attachment_id):
        """Disconnect the attachment and remove it."""
        self._require('1.1', 'disconnecting an attachment')
        return self._prepare(volume, '1.1').call(
            ctxt, 'attachment_delete', volume=volume,
            attachment_id=attachment_id)


_client = None


def get():
    """The process's client of tether-volume, made on first use (again
    while ``[upgrade_levels] volume = auto`` finds no tether-volume)."""
    global _client
    if _client is None or not _client.pin.final:
        _client = VolumeAPI()
    return _client
