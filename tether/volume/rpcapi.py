"""Versioned RPC client of tether-volume (runs in the API process)."""

import oslo_messaging as messaging
from oslo_config import cfg

from tether import rpc

CONF = cfg.CONF
TOPIC = 'tether-volume'


class VolumeAPI:
    """Client side of the volume manager's RPC API.

    API version history:

    * 1.0 - create_volume, delete_volume, extend_volume
    * 1.1 - attachment_update, attachment_delete (synchronous calls)
    """

    RPC_API_VERSION = '1.1'

    def __init__(self):
        target = messaging.Target(topic=TOPIC, version='1.0')
        self.client = rpc.get_client(
            target, timeout=CONF.rpc_response_timeout_volume)

    def _prepare(self, volume, version='1.0'):
        return self.client.prepare(server=volume.backend_host,
                                   version=version)

    def create_volume(self, ctxt, volume):
        self._prepare(volume).cast(ctxt, 'create_volume', volume=volume)

    def delete_volume(self, ctxt, volume):
        self._prepare(volume).cast(ctxt, 'delete_volume', volume=volume)

    def extend_volume(self, ctxt, volume, new_size, reservations):
        self._prepare(volume).cast(ctxt, 'extend_volume', volume=volume,
                                   new_size=new_size,
                                   reservations=reservations)

    def attachment_update(self, ctxt, volume, connector, attachment_id):
        """Connect the attachment; returns the connection info."""
        return self._prepare(volume, '1.1').call(
            ctxt, 'attachment_update', volume=volume, connector=connector,
            attachment_id=attachment_id)

    def attachment_delete(self, ctxt, volume, attachment_id):
        """Disconnect the attachment and remove it."""
        return self._prepare(volume, '1.1').call(
            ctxt, 'attachment_delete', volume=volume,
            attachment_id=attachment_id)


_client = None


def get():
    """The process's client of tether-volume, made on first use."""
    global _client
    if _client is None:
        _client = VolumeAPI()
    return _client
