"""The Manila shares of a server (``/servers/{id}/shares``): attach and
detach, in the API process.

Everything that can refuse an attach is decided before a mapping is
stored: the server's state, its host (a tether-compute that knows shares,
and that can give a guest a virtio-fs device), the RPC pin, and the share
as Manila shows it to the caller. The mapping's unique constraints settle
two attaches of one share (or one tag) racing: one wins, one gets 409.
Granting and revoking the host's access are the host's (allow_share,
deny_share), as Nova does it.
"""

import os_traits
from oslo_log import log as logging

from tether.compute.api import servers
from tether.compute import share_exception
from tether.compute import rpcapi as compute_rpcapi
from tether.compute import scheduler
from tether.compute import share_client
from tether.compute import version as compute_version
from tether.db.compute import instance_action as db_actions
from tether.db.compute import share_mapping as db_shares
from tether.objects import fields

LOG = logging.getLogger(__name__)
VmState = fields.VmState
Status = fields.ShareMappingStatus
Action = fields.InstanceAction

# A share is attached to a stopped server only, and detached from a
# stopped server or one in error (Nova's rules).
ATTACHABLE_VM_STATES = (VmState.STOPPED,)
DETACHABLE_VM_STATES = (VmState.STOPPED, VmState.ERROR)

# The mappings a detach may start from: not one being attached or
# detached (an active one: its server is in error and may still have it
# mounted; the host unmounts it).
DETACHABLE = (Status.INACTIVE, Status.ACTIVE, Status.ERROR)

# Guest memory a virtio-fs device can share with virtiofsd: file-backed
# memory on the host, or huge pages the flavor asks for.
MEM_PAGE_SIZE = 'hw:mem_page_size'


def list_shares(context, instance):
    return db_shares.get_by_instance(context, instance.uuid)


def get(context, instance, share_id):
    return db_shares.get(context, instance.uuid, share_id)


def check_host_shares(context, instance):
    """The server's host can give its guest a virtio-fs share: its
    tether-compute knows shares (403 otherwise, as Nova), and it reports
    virtio-fs and memory the guest can share (409 otherwise)."""
    found = scheduler.service_version(context, instance.host)
    needed = compute_version.SHARES_SERVICE_VERSION
    if found < needed:
        raise share_exception.SharesNotSupported(
            host=instance.host, version=found, needed=needed)
    traits = scheduler.host_traits(context, instance.host)
    if os_traits.COMPUTE_STORAGE_VIRTIO_FS not in traits:
        raise share_exception.SharesNotConfigured(
            host=instance.host, instance_id=instance.uuid,
            reason='its hypervisor does not report %s (libvirt, QEMU or '
                   'virtiofsd too old or missing)'
                   % os_traits.COMPUTE_STORAGE_VIRTIO_FS)
    extra_specs = (instance.flavor or {}).get('extra_specs') or {}
    if (os_traits.COMPUTE_MEM_BACKING_FILE not in traits
            and not extra_specs.get(MEM_PAGE_SIZE)):
        raise share_exception.SharesNotConfigured(
            host=instance.host, instance_id=instance.uuid,
            reason='virtio-fs needs guest memory shared with the host: '
                   'the host reports no %s ([libvirt] file_backed_memory) '
                   'and the flavor sets no %s'
                   % (os_traits.COMPUTE_MEM_BACKING_FILE, MEM_PAGE_SIZE))


def check_share(share):
    """A share Manila shows can be attached: available, exported, over a
    protocol virtio-fs carries (409 otherwise)."""
    if share.status != 'available':
        reason = 'it is %s in Manila, not available' % share.status
    elif not share.export_location:
        reason = 'Manila shows no export location for it'
    elif share.protocol not in fields.ShareProtocol.ALL:
        reason = ('its protocol is %s; a server mounts %s shares'
                  % (share.protocol, ' or '.join(fields.ShareProtocol.ALL)))
    else:
        return
    raise share_exception.ShareNotAttachable(share_id=share.id, reason=reason)


def attach_share(context, instance, share_id, tag=None):
    """Attach Manila's share ``share_id`` to a stopped server, mounted
    by the guest as ``tag`` (the share's ID by default); returns the
    mapping, ``attaching`` until the host was granted access."""
    servers.check_state(instance, 'attach_share', ATTACHABLE_VM_STATES)
    servers.check_unlocked(context, instance)
    check_host_shares(context, instance)
    rpc = compute_rpcapi.get()
    rpc.check_share_calls()
    share = share_client.for_user(context).get(share_id)
    check_share(share)
    # Stored only while the server is still stopped with no task: a
    # start that came first is refused here, one that comes later finds
    # the mapping (and its host grants the access before it starts).
    mapping = db_shares.create(context, instance.uuid, share.id,
                               tag or share.id, share.export_location,
                               share.protocol, ATTACHABLE_VM_STATES)
    db_actions.action_start(context, instance.uuid, Action.ATTACH_SHARE)
    LOG.info('Attaching share %s to server %s as %s', share.id,
             instance.uuid, mapping.tag)
    rpc.allow_share(context, instance, share.id)
    return mapping


def detach_share(context, instance, share_id):
    """Start detaching a share from a stopped server (or one in error):
    its mapping is ``detaching`` until the host revoked its access."""
    servers.check_state(instance, 'detach_share', DETACHABLE_VM_STATES)
    servers.check_unlocked(context, instance)
    rpc = compute_rpcapi.get()
    rpc.check_share_calls()
    mapping = db_shares.get(context, instance.uuid, share_id)
    if not db_shares.transition(context, instance.uuid, share_id,
                                DETACHABLE, Status.DETACHING,
                                vm_states=DETACHABLE_VM_STATES):
        mapping = db_shares.get(context, instance.uuid, share_id)
        raise share_exception.ShareMappingInvalidState(
            share_id=share_id, instance_id=instance.uuid,
            status=mapping.status, action='a detach',
            expected=' or '.join(DETACHABLE))
    db_actions.action_start(context, instance.uuid, Action.DETACH_SHARE)
    LOG.info('Detaching share %s (%s) from server %s', share_id,
             mapping.tag, instance.uuid)
    rpc.deny_share(context, instance, share_id)
