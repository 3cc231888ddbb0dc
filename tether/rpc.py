"""oslo.messaging plumbing: the transport, clients and servers, serialization,
and the version pins of rolling upgrades (``[upgrade_levels]``)."""

import dataclasses
import threading
import warnings

from oslo_config import cfg
from oslo_log import log as logging
import oslo_messaging as messaging
from oslo_utils import versionutils

from tether import context as t_context
from tether import memory_transport
from tether.objects import base as objects_base

CONF = cfg.CONF
LOG = logging.getLogger(__name__)

TRANSPORT = None
# Exceptions a remote call may raise as themselves (domain exceptions
# name the problem; anything else arrives as a RemoteError).
ALLOWED_EXMODS = ['tether.exception', 'tether.volume.exception',
                  'tether.compute.exception',
                  'tether.compute.image_exception',
                  'tether.compute.share_exception']


def init(conf=None, url=None):
    """Create the RPC transport (once per process)."""
    global TRANSPORT
    conf = conf or cfg.CONF
    if TRANSPORT is None:
        TRANSPORT = messaging.get_rpc_transport(
            conf, url=url, allowed_remote_exmods=ALLOWED_EXMODS)
    return TRANSPORT


def stop_server(server):
    """Stop an RPC server and wait until it stopped. Its listener sees the
    stop when its transport's wait ends: tether-aio's in-process transport
    waits up to a second, and is told to end its waits meanwhile."""
    with memory_transport.waking():
        server.stop()
        server.wait()


def cleanup():
    global TRANSPORT, NOTIFIER
    if TRANSPORT is not None:
        # (The reply listener of the RPC clients stops here.)
        with memory_transport.waking():
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


class RequestContextSerializer(messaging.Serializer):
    """Contexts travel as dicts; objects as versioned primitives."""

    def __init__(self, base=None, object_versions=None):
        self._base = base or objects_base.TetherObjectSerializer(
            object_versions)

    def serialize_entity(self, ctxt, entity):
        return self._base.serialize_entity(ctxt, entity)

    def deserialize_entity(self, ctxt, entity):
        return self._base.deserialize_entity(ctxt, entity)

    def serialize_context(self, ctxt):
        return ctxt.to_dict()

    def deserialize_context(self, ctxt):
        return t_context.RequestContext.from_dict(ctxt)


def get_client(target, pin=None, timeout=None):
    """A client of ``target`` that sends at most the RPC version of
    ``pin`` (a :class:`VersionPin`), and objects at its versions."""
    pin = pin or VersionPin()
    return messaging.get_rpc_client(
        TRANSPORT, target, version_cap=pin.rpc,
        serializer=RequestContextSerializer(object_versions=pin.objects),
        timeout=timeout)


def get_server(target, endpoints):
    with warnings.catch_warnings():
        # The executor argument is deprecated in favour of the default
        # (threading), which is what tether wants; say it explicitly.
        warnings.simplefilter('ignore', DeprecationWarning)
        return messaging.get_rpc_server(
            TRANSPORT, target, endpoints, executor='threading',
            serializer=RequestContextSerializer())


# Rolling upgrades ---------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class VersionPin:
    """What the clients of one RPC API send: at most RPC version ``rpc``
    (None: the newest this code knows) and each object at the version
    ``objects`` names (None: the newest)."""
    rpc: str | None = None
    objects: dict | None = None
    # False while ``auto`` finds no service: the client asks again.
    final: bool = True


# Option name of [upgrade_levels] -> the pin ``auto`` chose, once per
# process (as Nova's LAST_VERSION): an API restarted (or reloaded) after
# the last manager was upgraded sends the newest versions again.
_AUTO_PINS = {}
_AUTO_LOCK = threading.Lock()


def reset_version_pins():
    """Forget what ``auto`` chose (the next client reads the services)."""
    _AUTO_PINS.clear()


def _as_tuple(version):
    return versionutils.convert_version_to_tuple(version)


def pin_at(history, version):
    """A cap at ``version`` with the objects of the newest row of
    ``history`` at or below it; None if ``version`` is older than every
    row or of another major version (this code cannot send it)."""
    known = sorted(history, key=_as_tuple)
    rows = [v for v in known if _as_tuple(v) <= _as_tuple(version)]
    if not rows or _as_tuple(version)[0] != _as_tuple(known[-1])[0]:
        return None
    return VersionPin(rpc=version, objects=dict(history[rows[-1]]))


def version_pin(name, binary, history, oldest_service):
    """The pin of the clients of ``binary``'s RPC API, as
    ``[upgrade_levels] <name>`` says: unset, no pin; a version, that
    version; ``auto``, the RPC version of the oldest ``binary`` in the
    services table.

    ``history`` maps each RPC version this code speaks to the version of
    each object a manager of that version reads. ``oldest_service()``
    returns ``(RPC version, what)`` of the oldest registered service,
    ``what`` saying which it is (for the log), or None if none has
    registered.
    """
    configured = CONF.upgrade_levels[name]
    if not configured:
        return VersionPin()
    if configured != 'auto':
        pin = pin_at(history, configured)
        if pin is None:
            raise cfg.ConfigFileValueError(
                '[upgrade_levels] %s = %s: this %s RPC client speaks %s'
                % (name, configured, binary,
                   ', '.join(sorted(history, key=_as_tuple))))
        return pin
    with _AUTO_LOCK:
        if name in _AUTO_PINS:
            return _AUTO_PINS[name]
        newest = max(history, key=_as_tuple)
        found = oldest_service()
        if found is None:
            LOG.debug('No %s has registered: sending %s RPC version %s, '
                      'the newest, until one does', binary, binary, newest)
            return VersionPin(rpc=newest, objects=dict(history[newest]),
                              final=False)
        version, what = found
        if _as_tuple(version) > _as_tuple(newest):
            version = newest
        pin = pin_at(history, version)
        if pin is None:
            raise cfg.ConfigFileValueError(
                '[upgrade_levels] %s = auto: the oldest %s (%s) speaks RPC '
                'version %s, which this code cannot send (it speaks %s)'
                % (name, binary, what, version,
                   ', '.join(sorted(history, key=_as_tuple))))
        LOG.info('Automatically selected %s RPC version %s from minimum '
                 'service version %s', binary, pin.rpc, what)
        _AUTO_PINS[name] = pin
        return pin
