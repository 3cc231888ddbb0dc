"""Exceptions of the compute service.

The shared kinds (every class of tether.exception) are here under their
own names too, so that the compute service's code names one module.
"""

from tether import exception
# The shared kinds, tether.exception.__all__, under this module's name too.
from tether.exception import *  # noqa: F401,F403 - names again, on purpose


class VirtError(exception.TetherException):
    """libvirt refused or failed an operation; the message is libvirt's."""
    msg_fmt = 'Hypervisor error: %(reason)s'
    error_code = 'compute.virt.error'

    def __init__(self, message=None, code=None, **kwargs):
        self.code = code
        # In kwargs, so that it crosses RPC (oslo.messaging rebuilds a
        # remote exception from its message and kwargs).
        super().__init__(message, code=code, **kwargs)


class HypervisorUnavailable(VirtError):
    msg_fmt = 'Cannot reach the hypervisor at %(uri)s: %(reason)s'
    error_code = 'compute.virt.unavailable'


class InstanceNotFound(exception.NotFound):
    msg_fmt = 'Instance %(instance_id)s could not be found.'
    error_code = 'compute.server.not_found'


class InstanceExists(exception.Conflict):
    msg_fmt = 'Instance %(instance_id)s already exists on this host.'
    error_code = 'compute.server.exists'


class InvalidConnectionInfo(exception.Invalid):
    msg_fmt = 'Invalid volume connection info: %(reason)s'
    error_code = 'compute.virt.invalid_connection_info'


class InvalidBlockResize(exception.Invalid):
    msg_fmt = ('Cannot resize %(device)s of instance %(instance_id)s to '
               '%(requested)s bytes: %(reason)s')
    error_code = 'compute.virt.invalid_block_resize'


class VolumeShareNotMounted(VirtError):
    msg_fmt = ('The share %(export)s of a volume could not be mounted: '
               '%(reason)s')
    error_code = 'compute.virt.share_not_mounted'


class VolumeAlreadyAttached(exception.Conflict):
    msg_fmt = ('Volume %(volume_id)s is already attached to instance '
               '%(instance_id)s as %(device)s.')
    error_code = 'compute.virt.volume_on_guest'


class VolumeFileNotFound(exception.NotFound):
    msg_fmt = ('The file %(path)s of volume %(volume_id)s does not exist on '
               'this host.')
    error_code = 'compute.virt.volume_file_not_found'


class VolumeChainMismatch(exception.Invalid):
    """An assisted snapshot's create or delete names files that the
    guest's disk of the volume does not have where they are said to be."""
    msg_fmt = ('The files of volume %(volume_id)s on server '
               '%(instance_id)s do not allow this: %(reason)s')
    error_code = 'compute.virt.volume_chain_mismatch'


class VolumeNotOnAnyServer(exception.Invalid):
    """An assisted snapshot names a volume no server has (Nova's
    VolumeBDMNotFound, 400)."""
    msg_fmt = 'Volume %(volume_id)s is not attached to any server.'
    error_code = 'compute.assisted.volume_not_attached'


class VolumeOnManyServers(exception.Invalid):
    msg_fmt = ('Volume %(volume_id)s is attached to more than one server: '
               'no one hypervisor can take its snapshots.')
    error_code = 'compute.assisted.volume_multiattached'


class AssistedSnapshotRefused(exception.Invalid):
    """The server of the volume cannot take or merge its snapshot now
    (Nova answers these with 400 on this API)."""
    msg_fmt = 'Server %(instance_id)s cannot %(action)s now: %(reason)s'
    error_code = 'compute.assisted.server_not_ready'


class InvalidDeleteInfo(exception.Invalid):
    msg_fmt = 'Invalid delete_info: %(reason)s'
    error_code = 'compute.assisted.invalid_delete_info'


class FlavorNotFound(exception.NotFound):
    msg_fmt = 'Flavor %(flavor_id)s could not be found.'
    error_code = 'compute.flavor.not_found'


class FlavorExists(exception.Conflict):
    msg_fmt = 'A flavor with %(what)s %(value)s already exists.'
    error_code = 'compute.flavor.exists'


class InstanceInvalidState(exception.Conflict):
    msg_fmt = ("Cannot '%(action)s' instance %(instance_id)s while it is "
               "in %(attr)s %(state)s")
    error_code = 'compute.server.invalid_state'


class ConsoleNotAvailable(exception.NotFound):
    """The guest has no console whose output the host keeps (one defined
    before tether logged consoles): Nova's 404."""
    msg_fmt = ('The guest of instance %(instance_id)s does not have a '
               'console available.')
    error_code = 'compute.console.not_available'


class InstanceNotReady(exception.Conflict):
    msg_fmt = 'Instance %(instance_id)s is not ready: %(reason)s'
    error_code = 'compute.server.not_ready'


class VolumeAttachmentNotFound(exception.NotFound):
    """The server has no such volume: no mapping of it, or (the
    hypervisor driver says) no such disk on its guest."""
    msg_fmt = ('Volume %(volume_id)s is not attached to server '
               '%(instance_id)s.')
    error_code = 'compute.volume_attachment.not_found'


class DeviceInUse(exception.Conflict):
    msg_fmt = 'Device %(device)s of instance %(instance_id)s is in use.'
    error_code = 'compute.volume_attachment.device_in_use'


class NoFreeDeviceName(exception.Conflict):
    msg_fmt = ('Instance %(instance_id)s has no free disk device name left '
               '(it has %(count)d disks).')
    error_code = 'compute.volume_attachment.no_device_name'


class VolumeAlreadyAttachedToServer(exception.Invalid):
    """A second attach of one volume to one server: a 400, as Nova
    answers it (an InvalidVolume there)."""
    msg_fmt = ('Volume %(volume_id)s is already attached to server '
               '%(instance_id)s.')
    error_code = 'compute.volume_attachment.exists'


class AttachmentPropertyImmutable(exception.Invalid):
    """An update of a volume attachment changes what cannot change
    (all but ``delete_on_termination``)."""
    msg_fmt = ('The %(name)s property of volume attachment %(volume_id)s '
               'is not mutable.')
    error_code = 'compute.volume_attachment.immutable'


class VolumeNotMigrating(exception.Conflict):
    """A swap of a server's volume, which the volume service asks for
    during a volume migration only; tether's migrates none."""
    msg_fmt = ('Volume %(volume_id)s is not migrating; swapping a '
               'server\'s volume is only for the volume service during a '
               'volume migration, and tether\'s volume service does not '
               'migrate volumes.')
    error_code = 'compute.volume_attachment.not_migrating'


class InvalidBDM(exception.Invalid):
    msg_fmt = 'Block Device Mapping is Invalid: %(reason)s'
    error_code = 'compute.server.invalid_block_device_mapping'


class NoValidHost(exception.TetherException):
    msg_fmt = 'No valid host was found. %(reason)s'
    error_code = 'compute.scheduler.no_valid_host'


class ComputeServiceNotFound(exception.NotFound):
    msg_fmt = 'Compute service %(service_id)s could not be found.'
    error_code = 'compute.service.not_found'


class ComputeServiceInUse(exception.Conflict):
    msg_fmt = ('Unable to delete compute service %(service_id)s: host '
               '%(host)s is hosting %(count)s instance(s). Delete them '
               'first.')
    error_code = 'compute.service.in_use'


class HypervisorNotFound(exception.NotFound):
    msg_fmt = 'Hypervisor %(hypervisor_id)s could not be found.'
    error_code = 'compute.hypervisor.not_found'


class InstanceActionNotFound(exception.NotFound):
    msg_fmt = ('Action for request_id %(request_id)s on instance '
               '%(instance_id)s not found')
    error_code = 'compute.instance_action.not_found'


class ExtendFailed(exception.TetherException):
    msg_fmt = 'Volume %(volume_id)s could not be extended: %(reason)s'
    error_code = 'compute.volume_attachment.extend_failed'


class VolumeAttachFailed(exception.Conflict):
    msg_fmt = ('Volume %(volume_id)s could not be attached to server '
               '%(instance_id)s: %(reason)s')
    error_code = 'compute.volume_attachment.attach_failed'


class ComputeHostTooOld(exception.Conflict):
    """The server's host runs a tether-compute of a release before what
    the request needs (a rolling upgrade is under way)."""
    msg_fmt = ('The compute service of host %(host)s cannot serve '
               '%(what)s: it is at service version %(version)s, and '
               '%(what)s needs %(needed)s or newer. Upgrade that host.')
    error_code = 'compute.host.too_old'


class ComputeHostsTooOld(exception.Conflict):
    """Every compute host that could take the server runs a
    tether-compute of a release before what the request needs."""
    msg_fmt = ('No compute host%(zone)s can build %(what)s: it needs '
               'tether-compute service version %(needed)s or newer, and '
               'the hosts that are up and enabled are at %(found)s. '
               'Upgrade them.')
    error_code = 'compute.host.all_too_old'


class ComputeHostUnavailable(exception.ServiceUnavailable):
    """A compute host did not answer a call in time."""
    msg_fmt = ('The compute host %(host)s did not answer in time; '
               'try again later.')
    error_code = 'compute.host.unavailable'


class InstanceIsLocked(exception.Conflict):
    msg_fmt = 'Instance %(instance_id)s is locked.'
    error_code = 'compute.server.locked'


class ForbiddenWithShare(exception.Conflict):
    """Nova's 409 for what a server with shares cannot do (virtio-fs
    has no migration or saved state)."""
    msg_fmt = ("Cannot '%(action)s' instance %(instance_id)s: feature not "
               "supported with instances that have shares.")
    error_code = 'compute.server.has_shares'


class InstanceNotRescuable(exception.Invalid):
    """Nova's 400 for a server that cannot be rescued as it is (one that
    boots from a volume, below 2.87 or on a host that cannot)."""
    msg_fmt = 'Instance %(instance_id)s cannot be rescued: %(reason)s'
    error_code = 'compute.rescue.not_rescuable'


class InstanceLockChanged(exception.Conflict):
    """An unlock raced a lock of someone else's: that lock is kept."""
    msg_fmt = ('Instance %(instance_id)s was locked again while it was '
               'being unlocked; try again.')
    error_code = 'compute.server.lock_changed'


class RebuildImageNotFound(exception.Invalid):
    """Nova answers 400 for a rebuild's image it cannot find."""
    msg_fmt = 'Cannot find image %(image_id)s for rebuild.'
    error_code = 'compute.rebuild.image_not_found'


class RebuildVolumeBackedNotSupported(exception.Conflict):
    """The host of a volume-backed server does not report the trait of
    hosts that re-image root volumes (the spec's
    RebuildVolumeBackedServerNotSupport)."""
    msg_fmt = ('The compute host %(host)s of server %(instance_id)s cannot '
               'rebuild volume-backed servers: it does not report the '
               'trait COMPUTE_REBUILD_BFV.')
    error_code = 'compute.host.rebuild_bfv_not_supported'


class VolumeAPIVersionNotAvailable(exception.Conflict):
    """The volume API is older than a request needs (the spec's
    CinderAPIVersionNotAvailable)."""
    msg_fmt = ('%(what)s needs volume API microversion %(version)s; the '
               'volume API serves up to %(found)s.')
    error_code = 'compute.volume_api.too_old'


class EventTimeout(exception.TetherException):
    msg_fmt = ('The %(name)s event (%(tag)s) of instance %(instance_id)s '
               'did not come within %(timeout)s seconds.')
    error_code = 'compute.event.timeout'


class EventAlreadyExpected(exception.Conflict):
    msg_fmt = ('The %(name)s event (%(tag)s) of instance %(instance_id)s '
               'is expected already.')
    error_code = 'compute.event.already_expected'


class ServiceStopping(exception.TetherException):
    msg_fmt = ('tether-compute stopped while the %(name)s event (%(tag)s) '
               'of instance %(instance_id)s was waited for.')
    error_code = 'compute.event.service_stopping'


class ReimageFailed(exception.TetherException):
    msg_fmt = 'Volume %(volume_id)s could not be re-imaged: %(reason)s'
    error_code = 'compute.rebuild.reimage_failed'


def from_remote(remote_error):
    """The exception an older tether-compute raised over RPC, which
    arrives as a RemoteError: its classes were in tether.exception then
    (the module name is what a remote exception is rebuilt from). A class
    of this module by that name is rebuilt with the remote message;
    anything else stays the RemoteError."""
    cls = globals().get(remote_error.exc_type)
    if isinstance(cls, type) and issubclass(cls, exception.TetherException):
        return cls(message=remote_error.value)
    return remote_error


# The volume API, as the compute service sees it ------------------------------

class VolumeNotFound(exception.NotFound):
    """The volume API answered 404 (or the volume is another project's)."""
    msg_fmt = 'Volume %(volume_id)s could not be found.'
    error_code = 'compute.volume.not_found'


class SnapshotNotFound(exception.NotFound):
    """The volume API has no such snapshot (tether's has none)."""
    msg_fmt = 'Snapshot %(snapshot_id)s could not be found.'
    error_code = 'compute.snapshot.not_found'


class SnapshotsNotServed(exception.Invalid):
    """A snapshot create through ``/os-snapshots``, which the volume API
    cannot do: it serves no snapshots."""
    msg_fmt = ('A snapshot of volume %(volume_id)s cannot be made: the '
               'volume API serves no snapshots.')
    error_code = 'compute.snapshot.not_served'


class InvalidVolume(exception.Invalid):
    msg_fmt = 'Invalid volume: %(reason)s'
    error_code = 'compute.volume.invalid'


class VolumeAPIError(exception.TetherException):
    """The volume API answered a call of the compute service with an
    error (``status`` is its HTTP status, or None if it did not answer);
    one of the three kinds below (tether.compute.volume_client says
    which), by what the compute API answers."""
    msg_fmt = 'The volume API failed: %(reason)s'
    error_code = 'compute.volume_api.error'

    def __init__(self, message=None, status=None, **kwargs):
        self.status = status
        super().__init__(message, status=status, **kwargs)


class VolumeAPIForbidden(VolumeAPIError, exception.Forbidden):
    error_code = 'compute.volume_api.forbidden'


class VolumeAPIRefused(VolumeAPIError, exception.Invalid):
    error_code = 'compute.volume_api.refused'


class VolumeAPIUnavailable(VolumeAPIError, exception.ServiceUnavailable):
    error_code = 'compute.volume_api.unavailable'


# A server's metadata ---------------------------------------------------------

class MetadataItemNotFound(exception.NotFound):
    msg_fmt = 'Metadata item was not found'
    error_code = 'compute.server.metadata_not_found'
