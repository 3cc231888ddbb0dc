"""oslo.messaging plumbing: the transport, clients and servers, serialization."""

import warnings

import oslo_messaging as messaging
from oslo_config import cfg

from tether import context as t_context
from tether.objects import base as objects_base

TRANSPORT = None
# Exceptions a remote call may raise as themselves (domain exceptions
# name the problem; anything else arrives as a RemoteError).
ALLOWED_EXMODS = ['tether.exception']


def init(conf=None, url=None):
    """Create the RPC transport (once per process)."""
    global TRANSPORT
    conf = conf or cfg.CONF
    if TRANSPORT is None:
        TRANSPORT = messaging.get_rpc_transport(
            conf, url=url, allowed_remote_exmods=ALLOWED_EXMODS)
    return TRANSPORT


def cleanup():
    global TRANSPORT, NOTIFIER
    if TRANSPORT is not None:
        TRANSPORT.cleanup()
    TRANSPORT = None
    NOTIFIER = None


NOTIFIER = None


def get_notifier(publisher_id, conf=None):
    """A notifier (``[oslo_messaging_notifications]``; its default driver
    sends nothing) publishing as ``publisher_id``, e.g. ``volume.host``."""
    global NOTIFIER
    if NOTIFIER is None:
        transport = messaging.get_notification_transport(conf or cfg.CONF)
        NOTIFIER = messaging.Notifier(
            transport, serializer=RequestContextSerializer())
    return NOTIFIER.prepare(publisher_id=publisher_id)
# Exceptions a remote call may raise as themselves (domain exceptions
# name the problem; anything else arrives as a RemoteError).
ALLOWED_EXMODS = ['tether.exception']


class RequestContextSerializer(messaging.Serializer):
    """Contexts travel as dicts; objects as versioned primitives."""

    def __init__(self, base=None):
        self._base = base or objects_base.TetherObjectSerializer()

    def serialize_entity(self, ctxt, entity):
        return self._base.serialize_entity(ctxt, entity)

    def deserialize_entity(self, ctxt, entity):
        return self._base.deserialize_entity(ctxt, entity)

    def serialize_context(self, ctxt):
        return ctxt.to_dict()

    def deserialize_context(self, ctxt):
        return t_context.RequestContext.from_dict(ctxt)


def get_client(target, version_cap=None, timeout=None):
    return messaging.get_rpc_client(
        TRANSPORT, target, version_cap=version_cap,
        serializer=RequestContextSerializer(), timeout=timeout)


def get_server(target, endpoints):
    with warnings.catch_warnings():
        # The executor argument is deprecated in favour of the default
        # (threading), which is what tether wants; say it explicitly.
        warnings.simplefilter('ignore', DeprecationWarning)
        return messaging.get_rpc_server(
            TRANSPORT, target, endpoints, executor='threading',
            serializer=RequestContextSerializer())
