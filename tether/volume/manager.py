"""tether-volume's RPC endpoint for one backend (``host@backend``)."""

import contextlib
import threading

from oslo_config import cfg
from oslo_log import log as logging
import oslo_messaging as messaging
from oslo_utils import importutils

from tether.db.volume import volume as db_volumes
from tether.objects import fields
from tether.volume.ops import attachments
from tether.volume.ops import group_snapshots
from tether.volume.ops import image_upload
from tether.volume.ops import left_over
from tether.volume.ops import reimage
from tether.volume.ops import snapshots
from tether.volume.ops import volume_actions
from tether.volume.ops import volume_revert
from tether.volume.ops import volumes
from tether.volume import version as volume_version

CONF = cfg.CONF
LOG = logging.getLogger(__name__)


class VolumeManager:
    """Thin endpoint: each method runs one flow function."""

    target = messaging.Target(version=volume_version.RPC_API_VERSION)
    RPC_API_VERSION = volume_version.RPC_API_VERSION

    def __init__(self, host, configuration):
        self.host = host
        self.configuration = configuration
        driver_cls = importutils.import_class(configuration.volume_driver)
        self.driver = driver_cls(configuration, host)
        # Volumes a create, delete, upload or re-image of this process
        # works on: a message and the re-drive of a stale operation never
        # run one twice at once.
        self._working = set()
        self._working_lock = threading.Lock()
        # Set once the service stops: a pass over the rows left
        # mid-operation ends before its next row.
        self.stopping = False

    @contextlib.contextmanager
    def _exclusive(self, volume_id):
        """True (held until the block ends) unless it is being worked on."""
        with self._working_lock:
            taken = volume_id not in self._working
            self._working.add(volume_id)
        try:
            yield taken
        finally:
            if taken:
                with self._working_lock:
                    self._working.discard(volume_id)

    def _deleted_meanwhile(self, context, volume_id):
        """Run the delete that an administrator's force delete claimed
        while this process held the volume (its message found the volume
        taken and left it to the holder); nothing if it is not
        ``deleting``."""
        volumes.delete_volume(context, self.driver, volume_id)

    def init_host(self, context):
        """Set the driver up, then take up what this backend left half
        done, one row at a time: a row that cannot be taken up is logged
        and stays as it was, and the backend starts all the same (see
        "Reconciliation" in the docs)."""
        self.driver.do_setup()
        for what, ops in (('volume', volumes), ('attachment', attachments),
                          ('snapshot', snapshots),
                          ('group snapshot', group_snapshots)):
            left_over.log(self.host, what, ops.reconcile(
                context, self.driver, self.host,
                stopping=lambda: self.stopping))

    def get_capabilities(self, context):
        stats = self.driver.get_volume_stats()
        allocated = db_volumes.allocated_gb_by_pool(context, self.host)
        for pool in stats['pools']:
            pool['provisioned_capacity_gb'] = allocated.get(
                pool['pool_name'], 0)
        return stats

    # RPC methods ------------------------------------------------------------

    def create_volume(self, context, volume, image=None):
        with self._exclusive(volume.id) as taken:
            if taken:
                volumes.create_volume(context, self.driver, volume.id,
                                      image=image)
                self._deleted_meanwhile(context, volume.id)
            else:
                LOG.info('Volume %s is being created already', volume.id)

    def delete_volume(self, context, volume):
        with self._exclusive(volume.id) as taken:
            if taken:
                volumes.delete_volume(context, self.driver, volume.id)
            else:
                # A force delete of a volume being created or uploaded:
                # the flow that holds it deletes it when it ends.
                LOG.info('Volume %s is being worked on already; deleted '
                         'when that ends', volume.id)

    def extend_volume(self, context, volume, new_size, reservations):
        volume_actions.extend_volume(context, self.driver, self.host,
                                     volume.id, new_size, reservations)

    def copy_volume_to_image(self, context, volume, image):
        with self._exclusive(volume.id) as taken:
            if taken:
                image_upload.copy_volume_to_image(context, self.driver,
                                                  volume.id, image)
                self._deleted_meanwhile(context, volume.id)
            else:
                LOG.info('Volume %s is being worked on already', volume.id)

    def reimage(self, context, volume, image_id, image=None):
        with self._exclusive(volume.id) as taken:
            if taken:
                reimage.reimage(context, self.driver, volume.id, image_id,
                                image=image)
                self._deleted_meanwhile(context, volume.id)
            else:
                LOG.info('Volume %s is being worked on already', volume.id)

    def revert_to_snapshot(self, context, volume, snapshot):
        volume_revert.revert(context, self.driver, volume.id, snapshot.id)

    def create_snapshot(self, context, volume, snapshot):
        snapshots.create_snapshot(context, self.driver, snapshot.id)

    def delete_snapshot(self, context, volume, snapshot):
        snapshots.delete_snapshot(context, self.driver, snapshot.id)

    def create_group_snapshot(self, context, group_snapshot_id):
        group_snapshots.create_group_snapshot(context, self.driver,
                                              group_snapshot_id)

    def delete_group_snapshot(self, context, group_snapshot_id):
        group_snapshots.delete_group_snapshot(context, self.driver,
                                              group_snapshot_id)

    def get_backup_device(self, context, volume, snapshot=None):
        return self.driver.backup_device(volume, snapshot)

    def redrive_stale_operations(self, context, timeout=None):
        """Periodic (not RPC): take up again the volumes left
        ``creating``, ``deleting``, ``uploading`` or being re-imaged
        longer than ``[DEFAULT] volume_operation_timeout`` that no one
        works on (tether.volume.ops.volumes.take_up). Each flow may be
        repeated: the driver keeps a whole file and deletes a missing
        one, and each flow acts only from the claimed status. Returns how
        many it took up; one that raises is logged and stays as it was,
        for the next round."""
        timeout = (CONF.volume_operation_timeout if timeout is None
                   else timeout)

        def one(volume):
            with self._exclusive(volume.id) as taken:
                if not taken:
                    return False
                LOG.warning('Volume %s has been %s for over %ss and no '
                            'message drives it: taking it up again',
                            volume.id, volume.status, timeout)
                volumes.take_up(context, self.driver, volume)

        tally = left_over.each('stale volume',
                               volumes.stale(context, self.host, timeout),
                               one, lambda: self.stopping)
        if tally.failed:
            left_over.log(self.host, 'stale volume', tally)
        return tally.taken_up

    def settle_overdue_extends(self, context):
        """Periodic: settle extends that waited too long (not RPC)."""
        return volume_actions.settle_overdue(
            context, self.driver, self.host, stopping=lambda: self.stopping)

    def attachment_update(self, context, volume, connector, attachment_id):
        return attachments.connect(context, self.driver, volume.id,
                                   attachment_id, connector)

    def attachment_delete(self, context, volume, attachment_id):
        attachments.disconnect(context, self.driver, volume.id,
                               attachment_id)


BINARY = fields.ServiceBinary.VOLUME
