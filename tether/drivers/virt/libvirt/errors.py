"""libvirt errors as tether exceptions, with libvirt's own message kept."""

import contextlib

import libvirt

from tether.compute import exception

# Errors of the client's RPC layer that mean the connection to libvirtd is
# gone (daemon restarted, socket closed): "Cannot write data: Broken pipe"
# (code 38), "client socket is closed" (code 1).
_RPC_DOMAINS = (libvirt.VIR_FROM_RPC, libvirt.VIR_FROM_REMOTE)
_LOST_CODES = (libvirt.VIR_ERR_SYSTEM_ERROR, libvirt.VIR_ERR_INTERNAL_ERROR,
               libvirt.VIR_ERR_RPC)
_NO_CONNECTION = (libvirt.VIR_ERR_NO_CONNECT, libvirt.VIR_ERR_INVALID_CONN)


def message_of(exc):
    return exc.get_error_message() or str(exc)


def is_connection_lost(exc):
    code = exc.get_error_code()
    return code in _NO_CONNECTION or (
        code in _LOST_CODES and exc.get_error_domain() in _RPC_DOMAINS)


def to_tether(exc, instance_id=None, uri=None):
    """The tether exception for a ``libvirt.libvirtError``."""
    code = exc.get_error_code()
    msg = message_of(exc)
    if is_connection_lost(exc):
        return exception.HypervisorUnavailable(uri=uri, reason=msg,
                                               code=code)
    if code == libvirt.VIR_ERR_NO_DOMAIN:
        err = exception.InstanceNotFound(instance_id=instance_id)
        return exception.InstanceNotFound(
            '%s (libvirt: %s)' % (err.msg, msg), instance_id=instance_id)
    if code == libvirt.VIR_ERR_DOM_EXIST:
        err = exception.InstanceExists(instance_id=instance_id)
        return exception.InstanceExists(
            '%s (libvirt: %s)' % (err.msg, msg), instance_id=instance_id)
    return exception.VirtError(reason=msg, code=code)


@contextlib.contextmanager
def translated(instance_id=None, uri=None, on_lost=None):
    """Raise libvirt's errors as tether's; call ``on_lost`` on a drop."""
    try:
        yield
    except libvirt.libvirtError as exc:
        if on_lost is not None and is_connection_lost(exc):
            on_lost()
        raise to_tether(exc, instance_id, uri) from exc
