"""tether-volume's RPC endpoint for one backend (``host@backend``)."""

import oslo_messaging as messaging
from oslo_log import log as logging
from oslo_utils import importutils

from tether.db import volumes as db_volumes
from tether.objects import fields
from tether.volume import attachment_flows
from tether.volume import extend
from tether.volume import flows
from tether.volume import version as volume_version

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

    def init_host(self, context):
        self.driver.do_setup()
        count = flows.reconcile(context, self.driver, self.host)
        if count:
            LOG.info('%s: reconciled %d volumes left mid-operation',
                     self.host, count)
        count = attachment_flows.reconcile(context, self.driver, self.host)
        if count:
            LOG.info('%s: reconciled %d attachments left mid-operation',
                     self.host, count)

    def get_capabilities(self, context):
        stats = self.driver.get_volume_stats()
        allocated = db_volumes.allocated_gb_by_pool(context, self.host)
        for pool in stats['pools']:
            pool['provisioned_capacity_gb'] = allocated.get(
                pool['pool_name'], 0)
        return stats

    # RPC methods ------------------------------------------------------------

    def create_volume(self, context, volume):
        flows.create_volume(context, self.driver, volume.id)

    def delete_volume(self, context, volume):
        flows.delete_volume(context, self.driver, volume.id)

    def extend_volume(self, context, volume, new_size, reservations):
        extend.extend_volume(context, self.driver, self.host, volume.id,
                             new_size, reservations)

    def settle_overdue_extends(self, context):
        """Periodic: settle extends that waited too long (not RPC)."""
        return extend.settle_overdue(context, self.driver, self.host)

    def attachment_update(self, context, volume, connector, attachment_id):
        return attachment_flows.connect(context, self.driver, volume.id,
                                        attachment_id, connector)

    def attachment_delete(self, context, volume, attachment_id):
        attachment_flows.disconnect(context, self.driver, volume.id,
                                    attachment_id)


BINARY = fields.ServiceBinary.VOLUME
