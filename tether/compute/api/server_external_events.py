"""Events from other services (``/os-server-external-events``), in the
API process: what each accepted event sets going."""

from oslo_log import log as logging

from tether.compute import exception
from tether.compute import rpcapi as compute_rpcapi
from tether.compute import scheduler
from tether.compute import version as compute_version
from tether.compute import volume_client
from tether.db.compute import instance_action as db_actions
from tether.db import session
from tether.objects import fields

LOG = logging.getLogger(__name__)

Action = fields.InstanceAction


# The compute service version that grows a volume extending for the
# volume service and answers it.
EXTEND_COMPLETION_SERVICE_VERSION = (
    compute_version.EXTEND_COMPLETION_SERVICE_VERSION)


def _refuse_waiting_extend(context, instance, volume_id):
    """The host of ``instance`` is too old to answer an extend that waits
    for it: if the volume waits, answer for it (error); True if so."""
    client = volume_client.as_service(context)
    try:
        volume = client.get_volume(volume_id)
    except exception.TetherException as exc:
        LOG.warning('Could not read volume %s for volume-extended: %s',
                    volume_id, exc)
        return False
    if volume['status'] != 'extending':
        return False
    LOG.warning('The compute service of host %s (of server %s) is too old '
                'to extend volume %s for the volume service; answering '
                'that it failed', instance.host, instance.uuid, volume_id)
    try:
        client.complete_extend(volume_id, error=True)
    except exception.TetherException:
        LOG.exception('Could not send the completion of volume %s',
                      volume_id)
    return True


def _to_waiting_work(context, instance, name, tag, status):
    """Hand the event to the work on the server's host that waits for
    it (a rebuild waits for volume-reimaged)."""
    if (scheduler.service_version(context, instance.host) <
            compute_version.REBUILD_SERVICE_VERSION):
        LOG.info('Event %s for instance %s: its host %s is too old to wait '
                 'for it', name, instance.uuid, instance.host)
        return
    try:
        compute_rpcapi.get().external_instance_event(context, instance,
                                                     name, tag, status)
    except exception.ServiceTooOld as exc:
        LOG.warning('Event %s for instance %s not sent: %s', name,
                    instance.uuid, exc)


@session.COMPUTE.writer
def _start_extend(context, instance):
    """The instance action extend_volume started, and the service version
    of the server's host: one transaction."""
    db_actions.action_start(context, instance.uuid, Action.EXTEND_VOLUME)
    return scheduler.service_version(context, instance.host)


def _volume_extended(context, instance, volume_id, new_size):
    host_version = _start_extend(context, instance)
    if (host_version < EXTEND_COMPLETION_SERVICE_VERSION and
            _refuse_waiting_extend(context, instance, volume_id)):
        db_actions.action_finish(context, instance.uuid, context.request_id)
        return
    client = compute_rpcapi.get()
    if (new_size is None or
            host_version < compute_version.EXTEND_SIZE_SERVICE_VERSION or
            not client.can_send_extend_size()):
        # The host reads the volume for the size (as for an upstream
        # Cinder's event, which has none).
        new_size = None
    client.extend_volume(context, instance, volume_id, new_size=new_size)


def external_event(context, instance, name, tag, status='completed',
                   new_size=None):
    """Act on one accepted event; returns nothing (codes are the API's).

    ``new_size`` (GiB): for volume-extended, the size of the extend that
    waits for the server's host, as a service caller sent it (see the
    handler), passed on to a host that takes it.
    """
    if name == 'volume-reimaged':
        _to_waiting_work(context, instance, name, tag, status)
    elif name == 'volume-extended':
        _volume_extended(context, instance, tag, new_size)
    else:
        # tether has no networking and no power-update source: the event
        # is accepted, as Nova accepts events it has nothing to do for.
        LOG.info('Event %s for instance %s needs nothing of tether',
                 name, instance.uuid)
