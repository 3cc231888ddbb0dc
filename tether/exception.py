"""Domain exceptions: they name the problem and carry no HTTP status."""


class TetherException(Exception):
    msg_fmt = 'An unknown error occurred.'

    def __init__(self, message=None, **kwargs):
        self.kwargs = kwargs
        if message is None:
            try:
                message = self.msg_fmt % kwargs
            except (KeyError, TypeError, ValueError):
                message = self.msg_fmt
        self.msg = message
        super().__init__(message)


class Invalid(TetherException):
    msg_fmt = 'Unacceptable parameters.'


class InvalidInput(Invalid):
    msg_fmt = 'Invalid input received: %(reason)s'


class InvalidVolume(Invalid):
    msg_fmt = 'Invalid volume: %(reason)s'


class InvalidVolumeStatus(InvalidVolume):
    msg_fmt = ('Invalid volume: volume %(volume_id)s is %(status)s; '
               'expected %(expected)s.')


class NotFound(TetherException):
    msg_fmt = 'Resource could not be found.'


class VolumeNotFound(NotFound):
    msg_fmt = 'Volume %(volume_id)s could not be found.'


class VolumeMetadataNotFound(NotFound):
    msg_fmt = 'Volume %(volume_id)s has no metadata with key %(key)s.'


class VolumeTypeNotFound(NotFound):
    msg_fmt = 'Volume type %(volume_type_id)s could not be found.'


class VolumeTypeExtraSpecsNotFound(NotFound):
    msg_fmt = 'Volume type %(volume_type_id)s has no extra spec %(key)s.'


class VolumeTypeInUse(Invalid):
    msg_fmt = ('Volume type %(volume_type_id)s is in use by volumes; '
               '%(what)s cannot be %(action)s while they exist.')


class VolumeTypeIsDefault(Invalid):
    msg_fmt = ('Volume type %(name)s is the default volume type '
               '(default_volume_type); it cannot be %(action)s.')


class ProjectNotFound(NotFound):
    msg_fmt = 'Project %(project_id)s could not be found.'


class AttachmentNotFound(NotFound):
    msg_fmt = 'Attachment %(attachment_id)s could not be found.'


class InvalidAttachmentStatus(Invalid):
    msg_fmt = ('Invalid attachment: attachment %(attachment_id)s is '
               '%(status)s; %(action)s needs it %(expected)s.')


class VolumeHasAttachments(InvalidVolume):
    msg_fmt = ('Invalid volume: volume %(volume_id)s has attachment '
               '%(attachment_id)s (%(status)s); delete its attachments '
               'first.')


class Forbidden(TetherException):
    msg_fmt = 'Not authorized.'


class PolicyNotAuthorized(Forbidden):
    msg_fmt = 'Policy does not allow %(action)s to be performed.'


class Conflict(TetherException):
    msg_fmt = 'Conflict with the current state of the resource.'


class VolumeTypeExists(Conflict):
    msg_fmt = 'A volume type named %(name)s already exists.'


class AttachmentConflict(Conflict):
    msg_fmt = 'Attachment %(attachment_id)s cannot be updated: %(reason)s'


class AttachmentInUse(Conflict):
    msg_fmt = ('Attachment %(attachment_id)s is in use by instance '
               '%(instance_uuid)s; only the compute service (a caller with '
               'a service role) may delete it.')


class QuotaError(TetherException):
    msg_fmt = 'Quota exceeded.'


class OverQuota(QuotaError):
    msg_fmt = ('Requested %(resource)s of %(requested)s exceeds the quota: '
               'limit %(limit)s, in use %(in_use)s, reserved %(reserved)s.')


class VolumeSizeExceedsLimit(QuotaError):
    msg_fmt = ('Requested volume size %(size)sG is larger than the maximum '
               'allowed per volume, %(limit)sG.')


class ReservationNotFound(NotFound):
    msg_fmt = 'Quota reservation %(reservation_id)s could not be found.'


class NoValidBackend(TetherException):
    msg_fmt = 'No valid backend was found: %(reason)s'


class BackendOperationFailed(TetherException):
    """The backend failed a call the API waited for; the state says so."""
    msg_fmt = 'The volume backend failed: %(reason)s'


class AttachmentConnectFailed(BackendOperationFailed):
    msg_fmt = ('The volume backend could not connect volume %(volume_id)s '
               'for attachment %(attachment_id)s (%(reason)s). The '
               'attachment is error_attaching: delete it and attach again.')


class AttachmentDisconnectFailed(BackendOperationFailed):
    msg_fmt = ('The volume backend could not disconnect attachment '
               '%(attachment_id)s of volume %(volume_id)s (%(reason)s). The '
               'attachment is %(status)s: delete it again.')


class ServiceTooOld(Conflict):
    """An RPC version pin (rolling upgrade) holds the client below what
    the request needs: 409, as Nova answers a request its not yet upgraded
    compute hosts cannot serve."""
    msg_fmt = ('%(what)s needs %(binary)s RPC version %(version)s; '
               '[upgrade_levels] %(option)s holds the API at %(pinned)s '
               'while a rolling upgrade of %(binary)s is not finished')


class VolumeBackendAPIException(TetherException):
    msg_fmt = 'Volume backend error: %(data)s'


class ProcessFailed(TetherException):
    msg_fmt = 'Command %(cmd)s failed: %(reason)s'


class ImageLocked(ProcessFailed):
    """qemu-img could not take the write lock: a running guest holds it."""
    msg_fmt = ('%(path)s is locked by another process (a running guest '
               'holds it).')


class ImageUnreadable(TetherException):
    msg_fmt = 'Cannot read the image %(path)s: %(reason)s'


class ExtendVolumeError(VolumeBackendAPIException):
    msg_fmt = 'Cannot extend volume %(volume_id)s: %(reason)s'


class ExtendNeedsHypervisor(TetherException):
    """A driver's answer to extend_volume: a hypervisor holds the volume
    and only it can grow it (QEMU's block_resize of a locked file)."""
    msg_fmt = ('Volume %(volume_id)s is in use by a hypervisor: only it can '
               'grow the volume.')


class VolumeNotExtending(Invalid):
    msg_fmt = 'Volume %(volume_id)s is not being extended: %(reason)s'


class RemoteFSNoSharesMounted(VolumeBackendAPIException):
    msg_fmt = 'No share could be mounted: %(reason)s'


class RemoteFSNoSuitableShare(VolumeBackendAPIException):
    msg_fmt = 'No share has room for %(size)sG.'


class VirtError(TetherException):
    """libvirt refused or failed an operation; the message is libvirt's."""
    msg_fmt = 'Hypervisor error: %(reason)s'

    def __init__(self, message=None, code=None, **kwargs):
        self.code = code
        # In kwargs, so that it crosses RPC (oslo.messaging rebuilds a
        # remote exception from its message and kwargs).
        super().__init__(message, code=code, **kwargs)


class HypervisorUnavailable(VirtError):
    msg_fmt = 'Cannot reach the hypervisor at %(uri)s: %(reason)s'


class InstanceNotFound(NotFound):
    msg_fmt = 'Instance %(instance_id)s could not be found.'


class InstanceExists(Conflict):
    msg_fmt = 'Instance %(instance_id)s already exists on this host.'


class VolumeNotAttached(NotFound):
    msg_fmt = ('Volume %(volume_id)s is not attached to instance '
               '%(instance_id)s.')


class InvalidConnectionInfo(Invalid):
    msg_fmt = 'Invalid volume connection info: %(reason)s'


class InvalidBlockResize(Invalid):
    msg_fmt = ('Cannot resize %(device)s of instance %(instance_id)s to '
               '%(requested)s bytes: %(reason)s')


class VolumeShareNotMounted(VirtError):
    msg_fmt = ('The share %(export)s of a volume could not be mounted: '
               '%(reason)s')


class VolumeAlreadyAttached(Conflict):
    msg_fmt = ('Volume %(volume_id)s is already attached to instance '
               '%(instance_id)s as %(device)s.')


class VolumeFileNotFound(NotFound):
    msg_fmt = ('The file %(path)s of volume %(volume_id)s does not exist on '
               'this host.')


# The compute service ------------------------------------------------------

class FlavorNotFound(NotFound):
    msg_fmt = 'Flavor %(flavor_id)s could not be found.'


class FlavorExists(Conflict):
    msg_fmt = 'A flavor with %(what)s %(value)s already exists.'


class InstanceInvalidState(Conflict):
    msg_fmt = ("Cannot '%(action)s' instance %(instance_id)s while it is "
               "in %(attr)s %(state)s")


class InstanceNotReady(Conflict):
    msg_fmt = 'Instance %(instance_id)s is not ready: %(reason)s'


class VolumeAttachmentNotFound(NotFound):
    msg_fmt = ('Volume %(volume_id)s is not attached to server '
               '%(instance_id)s.')


class DeviceInUse(Conflict):
    msg_fmt = 'Device %(device)s of instance %(instance_id)s is in use.'


class NoFreeDeviceName(Conflict):
    msg_fmt = ('Instance %(instance_id)s has no free disk device name left '
               '(it has %(count)d disks).')


class VolumeAlreadyAttachedToServer(Conflict):
    msg_fmt = ('Volume %(volume_id)s is already attached to server '
               '%(instance_id)s.')


class InvalidBDM(Invalid):
    msg_fmt = 'Block Device Mapping is Invalid: %(reason)s'


class NoValidHost(TetherException):
    msg_fmt = 'No valid host was found. %(reason)s'


class ComputeServiceNotFound(NotFound):
    msg_fmt = 'Compute service %(service_id)s could not be found.'


class ComputeServiceInUse(Conflict):
    msg_fmt = ('Unable to delete compute service %(service_id)s: host '
               '%(host)s is hosting %(count)s instance(s). Delete them '
               'first.')


class HypervisorNotFound(NotFound):
    msg_fmt = 'Hypervisor %(hypervisor_id)s could not be found.'


class InstanceActionNotFound(NotFound):
    msg_fmt = ('Action for request_id %(request_id)s on instance '
               '%(instance_id)s not found')


class VolumeAPIError(TetherException):
    """The volume API answered a call of the compute service with an
    error (``status`` is its HTTP status, or None if it did not answer)."""
    msg_fmt = 'The volume API failed: %(reason)s'

    def __init__(self, message=None, status=None, **kwargs):
        self.status = status
        super().__init__(message, status=status, **kwargs)

    @property
    def http_status(self):
        """What the compute API answers: the volume API refused the
        caller (403) or the request (400), or could not serve it (503)."""
        if self.status == 403:
            return 403
        if self.status is not None and 400 <= self.status < 500:
            return 400
        return 503


class ExtendFailed(TetherException):
    msg_fmt = 'Volume %(volume_id)s could not be extended: %(reason)s'


class VolumeAttachFailed(Conflict):
    msg_fmt = ('Volume %(volume_id)s could not be attached to server '
               '%(instance_id)s: %(reason)s')


class ComputeHostUnavailable(TetherException):
    """A compute host did not answer a call in time (503)."""
    msg_fmt = ('The compute host %(host)s did not answer in time; '
               'try again later.')
    http_status = 503
