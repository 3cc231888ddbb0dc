"""Exceptions of the compute service about Manila shares: the share API
as the compute service sees it, the host's mounts, and the shares
attached to servers (``/servers/{id}/shares``)."""

from tether.compute.exception import VirtError
from tether import exception

TetherException = exception.TetherException


class InvalidShareExport(exception.Invalid):
    """A share's export location, protocol or cephx identity cannot be
    mounted as given (the reason names the part; never the key)."""
    msg_fmt = 'Share %(share_id)s cannot be mounted: %(reason)s'
    error_code = 'compute.virt.invalid_share_export'


class ShareMountFailed(VirtError):
    """The host could not mount a Manila share (the reason is the mount
    command's message, which holds no key)."""
    msg_fmt = 'Share %(share_id)s could not be mounted: %(reason)s'
    error_code = 'compute.virt.share_mount_failed'


class ShareUnmountFailed(VirtError):
    msg_fmt = 'Share %(share_id)s could not be unmounted: %(reason)s'
    error_code = 'compute.virt.share_unmount_failed'


class ShareNotFound(exception.NotFound):
    """The share API answered 404 for the share (or 400 for an id it
    cannot read, as Nova takes it); ``reason`` holds its message."""
    msg_fmt = 'Share %(share_id)s could not be found.'
    error_code = 'compute.share.not_found'


class ShareAPIError(TetherException):
    """The share API answered a call of the compute service with an
    error (``status`` is its HTTP status, or None if it did not answer);
    one of the three kinds below (tether.compute.share_client says
    which), by what the compute API answers."""
    msg_fmt = 'The share API failed: %(reason)s'
    error_code = 'compute.share_api.error'

    def __init__(self, message=None, status=None, **kwargs):
        self.status = status
        super().__init__(message, status=status, **kwargs)


class ShareAPIForbidden(ShareAPIError, exception.Forbidden):
    error_code = 'compute.share_api.forbidden'


class ShareAPIRefused(ShareAPIError, exception.Invalid):
    error_code = 'compute.share_api.refused'


class ShareAPIUnavailable(ShareAPIError, exception.ServiceUnavailable):
    error_code = 'compute.share_api.unavailable'


class ShareAccessGrantError(TetherException):
    """The share API refused the access rule a compute host asked for, or
    the rule did not become active in time (the share mapping's error)."""
    msg_fmt = ('Share %(share_id)s could not be granted to this compute '
               'host: %(reason)s')
    error_code = 'compute.share.access_grant_failed'


class ShareAccessRemovalError(TetherException):
    """The share API did not remove a compute host's access rule (the
    share mapping's error)."""
    msg_fmt = ('The access of this compute host to share %(share_id)s '
               'could not be removed: %(reason)s')
    error_code = 'compute.share.access_removal_failed'


class ShareMappingNotFound(exception.NotFound):
    msg_fmt = 'Share %(share_id)s is not attached to server %(instance_id)s.'
    error_code = 'compute.share_mapping.not_found'


class ShareAlreadyAttached(exception.Conflict):
    msg_fmt = ('Share %(share_id)s is already attached to server '
               '%(instance_id)s.')
    error_code = 'compute.share_mapping.exists'


class ShareTagInUse(exception.Conflict):
    msg_fmt = ('Server %(instance_id)s already has a share with the tag '
               '%(tag)s.')
    error_code = 'compute.share_mapping.tag_in_use'


class ShareNotAttachable(exception.Conflict):
    """Manila's share cannot be attached: not available, no export
    location, or a protocol virtio-fs cannot carry."""
    msg_fmt = 'Share %(share_id)s cannot be attached: %(reason)s'
    error_code = 'compute.share_mapping.share_not_attachable'


class ShareMappingInvalidState(exception.Conflict):
    msg_fmt = ('Share %(share_id)s of server %(instance_id)s is '
               '%(status)s; %(action)s needs it %(expected)s.')
    error_code = 'compute.share_mapping.invalid_state'


class SharesNotSupported(exception.Forbidden):
    """The server's host runs a tether-compute that knows no shares (a
    rolling upgrade is under way); Nova answers 403 too."""
    msg_fmt = ('Shares are not supported by the compute service of host '
               '%(host)s: it is at service version %(version)s and shares '
               'need %(needed)s or newer.')
    error_code = 'compute.share_mapping.not_supported'


class SharesNotConfigured(exception.Conflict):
    """The server's host cannot give a guest a virtio-fs share."""
    msg_fmt = ('The compute host %(host)s of server %(instance_id)s cannot '
               'attach shares: %(reason)s')
    error_code = 'compute.share_mapping.host_not_configured'
