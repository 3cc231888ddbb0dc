"""The compute host's notifications of what it does to servers
(``instance.<what>.start|end|error``), as Nova sends them."""

import contextlib

from oslo_log import log as logging

from tether import rpc

LOG = logging.getLogger(__name__)


def send(context, host, instance, event_type, error=None, **extra):
    """Send ``instance.<event_type>`` about ``instance`` from the compute
    host ``host`` (its manager); at the error priority with ``error``.
    A notification never stops the work it tells of."""
    payload = {'instance_id': instance.uuid,
               'tenant_id': instance.project_id,
               'user_id': instance.user_id,
               'display_name': instance.display_name,
               'host': host.host, 'state': instance.vm_state}
    payload.update(extra)
    if error is not None:
        payload['error'] = str(error)
    try:
        notifier = rpc.get_notifier('compute.%s' % host.host)
        (notifier.error if error is not None else notifier.info)(
            context, 'instance.%s' % event_type, payload)
    except Exception:  # noqa: BLE001
        LOG.exception('Could not send instance.%s of %s', event_type,
                      instance.uuid)


@contextlib.contextmanager
def around(context, host, instance, what, **extra):
    """``instance.<what>.start`` now, then ``.end`` when the block ends
    or ``.error`` when it raises."""
    send(context, host, instance, what + '.start', **extra)
    try:
        yield
    except Exception as exc:
        send(context, host, instance, what + '.error', error=exc, **extra)
        raise
    send(context, host, instance, what + '.end', **extra)
