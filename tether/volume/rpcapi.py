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
    """

    RPC_API_VERSION = '1.0'

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
