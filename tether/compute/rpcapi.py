"""Versioned RPC client of tether-compute (runs in the API process)."""

import oslo_messaging as messaging
from oslo_config import cfg

from tether import rpc

CONF = cfg.CONF
TOPIC = 'tether-compute'


class ComputeAPI:
    """Client side of the compute manager's RPC API.

    API version history:

    * 1.0 - build_and_run_instance, terminate_instance, start_instance,
            stop_instance, reboot_instance, attach_volume (a call),
            detach_volume, extend_volume
    """

    RPC_API_VERSION = '1.0'

    def __init__(self):
        target = messaging.Target(topic=TOPIC, version='1.0')
        self.client = rpc.get_client(
            target, timeout=CONF.rpc_response_timeout_compute)

    def _prepare(self, host, version='1.0'):
        return self.client.prepare(server=host, version=version)

    def build_and_run_instance(self, ctxt, instance):
        self._prepare(instance.host).cast(
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

    def attach_volume(self, ctxt, instance, volume_id):
        """Connect and hot-attach a reserved volume; returns its device."""
        return self._prepare(instance.host).call(
            ctxt, 'attach_volume', instance=instance, volume_id=volume_id)

    def detach_volume(self, ctxt, instance, volume_id):
        self._prepare(instance.host).cast(
            ctxt, 'detach_volume', instance=instance, volume_id=volume_id)

    def extend_volume(self, ctxt, instance, volume_id):
        self._prepare(instance.host).cast(
            ctxt, 'extend_volume', instance=instance, volume_id=volume_id)


_client = None


def get():
    """The process's client of tether-compute, made on first use."""
    global _client
    if _client is None:
        _client = ComputeAPI()
    return _client
