"""What the compute manager does with the Manila shares of its servers.

The host is granted access to a share when it is attached (allow), and
gives it up when it is detached (deny) unless another server still needs
the rule; it mounts a share when a server that has it starts, once per
host however many servers use it, and unmounts it when the last of them
stops. The users of a host's mount of a share are its mappings in
``active`` on this host: a mapping becomes ``active`` (under the share's
lock) right after the mount, before the guest starts, and ``inactive``
before the last one unmounts.

Plain functions of (context, host, instance, ...), where ``host`` is the
:class:`~tether.compute.manager.ComputeManager`. Every change of a
mapping's status is a conditional update (tether.db.compute.share_mapping)
that names the states it starts from: a step that finds a mapping in
another state has lost a race and leaves it alone. The export location
and the cephx key are never logged.
"""

from oslo_concurrency import lockutils
from oslo_config import cfg
from oslo_log import log as logging

from tether.compute import exception
from tether.compute import share_exception
from tether.compute.ops import notifications
from tether.compute import share_client
from tether.db.compute import share_mapping as db_shares
from tether.drivers.virt import driver as virt_driver
from tether.objects import fields

CONF = cfg.CONF
LOG = logging.getLogger(__name__)
Status = fields.ShareMappingStatus
Protocol = fields.ShareProtocol

LOCK_REASON = 'Attached to a server by tether-compute'

# A server starts with the mappings in these states (an ``error`` one is
# tried again: granted, mounted); those being attached or detached are
# finished first.
STARTABLE = (Status.INACTIVE, Status.ACTIVE, Status.ERROR)


class ShareStartFailed(exception.TetherException):
    """A share of a server could not be made ready for its start: the
    server's fault."""
    msg_fmt = ('Share %(share_id)s (tag %(tag)s) of server %(instance_id)s '
               'could not be mounted on its host: %(reason)s')
    error_code = 'compute.share_mapping.mount_failed'


def share_lock(share_id):
    """One step at a time per share on this host: a mount and the last
    user's unmount, a grant and a revocation, never cross."""
    return lockutils.lock('tether-share-users-%s' % share_id)


def _access(mapping):
    """(access_type, access_to) of this host's rule for a share."""
    if mapping.share_proto == Protocol.CEPHFS:
        return 'cephx', CONF.share.cephfs_access_to
    return 'ip', CONF.my_shared_fs_storage_ip


def _needs_rule(mapping, other):
    """Whether ``other``, another mapping of the same share, still needs
    the rule this host's ``mapping`` was granted. A cephx identity is the
    same on every host, so any server's mapping counts; an IP rule is
    this host's alone (the caller passes only this host's mappings)."""
    return other.id != mapping.id and other.status != Status.DETACHING


def _users_of_rule(context, host, mapping):
    if mapping.share_proto == Protocol.CEPHFS:
        return db_shares.get_by_share(context, mapping.share_id)
    return db_shares.get_by_share_on_host(context, mapping.share_id,
                                          host.host)


def _fail(context, mapping, sources, exc):
    reason = str(exc) or type(exc).__name__
    db_shares.transition(context, mapping.instance_uuid, mapping.share_id,
                         sources, Status.ERROR, reason=reason)


# Attach and detach -----------------------------------------------------

def _grant(context, mapping):
    """The host's rule on the share, active (granted now if needed)."""
    access_type, access_to = _access(mapping)
    return share_client.as_service(context).allow(
        mapping.share_id, access_type, access_to, LOCK_REASON)


def allow(context, host, instance, share_id):
    """Grant this host access to a share being attached: ``attaching`` ->
    ``inactive``, or ``error`` with the reason. A mapping already past
    ``attaching`` (a start finished the attach) is left alone."""
    try:
        mapping = db_shares.get(context, instance.uuid, share_id)
    except share_exception.ShareMappingNotFound:
        return
    if mapping.status != Status.ATTACHING:
        return
    with notifications.around(context, host, instance, 'share_attach',
                              share_id=share_id, tag=mapping.tag):
        with share_lock(share_id):
            try:
                _grant(context, mapping)
            except Exception as exc:
                _fail(context, mapping, (Status.ATTACHING,), exc)
                raise
            db_shares.transition(context, instance.uuid, share_id,
                                 (Status.ATTACHING,), Status.INACTIVE)
    LOG.info('Share %s is attached to server %s as %s', share_id,
             instance.uuid, mapping.tag)


def _unmount_unused(context, host, share_id):
    """Unmount the host's mount of a share no server here has active."""
    if db_shares.get_by_share_on_host(context, share_id, host.host,
                                      statuses=(Status.ACTIVE,)):
        return False
    return host.driver.umount_share(share_id)


def _revoke(context, host, mapping):
    """Give up the host's rule unless another mapping needs it; True if
    the rule is gone (or was kept for another)."""
    users = [m for m in _users_of_rule(context, host, mapping)
             if _needs_rule(mapping, m)]
    if users:
        LOG.info('Share %s keeps its rule for %s: %d other servers use it',
                 mapping.share_id, _access(mapping)[0], len(users))
        return
    access_type, access_to = _access(mapping)
    share_client.as_service(context).deny(mapping.share_id, access_type,
                                          access_to)


def _release(context, host, mapping):
    """Unmount (if no one else uses the mount), revoke (if no one else
    needs the rule) and delete a mapping in ``detaching``."""
    with share_lock(mapping.share_id):
        _unmount_unused(context, host, mapping.share_id)
        _revoke(context, host, mapping)
        db_shares.destroy(context, mapping.instance_uuid, mapping.share_id,
                          (Status.DETACHING,))


def deny(context, host, instance, share_id):
    """Finish detaching a share: its mapping (``detaching``) is gone, or
    in ``error`` with the reason if Manila could not revoke the rule."""
    try:
        mapping = db_shares.get(context, instance.uuid, share_id)
    except share_exception.ShareMappingNotFound:
        return
    if mapping.status != Status.DETACHING:
        return
    with notifications.around(context, host, instance, 'share_detach',
                              share_id=share_id, tag=mapping.tag):
        try:
            _release(context, host, mapping)
        except Exception as exc:
            _fail(context, mapping, (Status.DETACHING,), exc)
            raise
    LOG.info('Share %s is detached from server %s', share_id,
             instance.uuid)


def _settle_pending(context, host, instance):
    """Finish the attaches and detaches of a server's shares that are
    still under way (a start overtook their casts)."""
    for mapping in db_shares.get_by_instance(context, instance.uuid):
        if mapping.status == Status.ATTACHING:
            allow(context, host, instance, mapping.share_id)
        elif mapping.status == Status.DETACHING:
            deny(context, host, instance, mapping.share_id)


# Start and stop --------------------------------------------------------

def _mount(context, host, mapping):
    """Mount a share for a server starting, and count the server among
    its users (``active``); the guest's view of it."""
    with share_lock(mapping.share_id):
        access = _grant(context, mapping)
        path = host.driver.mount_share(virt_driver.ShareMount(
            share_id=mapping.share_id, protocol=mapping.share_proto,
            export=mapping.export_location, access_to=access.access_to,
            access_key=access.access_key))
        if not db_shares.transition(context, mapping.instance_uuid,
                                    mapping.share_id, STARTABLE,
                                    Status.ACTIVE):
            _unmount_unused(context, host, mapping.share_id)
            raise share_exception.ShareMappingNotFound(
                share_id=mapping.share_id, instance_id=mapping.instance_uuid)
    return virt_driver.GuestShare(tag=mapping.tag, source_dir=path)


def mount_all(context, host, instance):
    """Make every share of a server ready for its start; the
    :class:`GuestShare` values the guest gets. A share that cannot be is
    put in ``error`` with the reason, the ones mounted for this start are
    released, and ShareStartFailed names it."""
    _settle_pending(context, host, instance)
    guest_shares, mounted = [], []
    for mapping in db_shares.get_by_instance(context, instance.uuid):
        if mapping.status not in STARTABLE:
            continue
        try:
            guest_shares.append(_mount(context, host, mapping))
        except Exception as exc:
            _fail(context, mapping, STARTABLE, exc)
            unmount_all(context, host, instance, mounted)
            raise ShareStartFailed(share_id=mapping.share_id,
                                   tag=mapping.tag,
                                   instance_id=instance.uuid, reason=exc)
        mounted.append(mapping.share_id)
    return guest_shares


def unmount_all(context, host, instance, share_ids=None):
    """A server stopped (or did not start): its ``active`` mappings are
    ``inactive``, and each share no other server here has active is
    unmounted. A failed unmount puts the mapping in ``error``."""
    for mapping in db_shares.get_by_instance(context, instance.uuid):
        if share_ids is not None and mapping.share_id not in share_ids:
            continue
        with share_lock(mapping.share_id):
            if not db_shares.transition(
                    context, instance.uuid, mapping.share_id,
                    (Status.ACTIVE,), Status.INACTIVE):
                continue
            try:
                _unmount_unused(context, host, mapping.share_id)
            except Exception as exc:  # noqa: BLE001 - the server is off
                LOG.warning('Share %s of server %s: %s', mapping.share_id,
                            instance.uuid, exc)
                _fail(context, mapping, (Status.INACTIVE,), exc)


# Delete and restart ----------------------------------------------------

def release_all(context, host, instance_uuid):
    """A server is being deleted (its guest is gone): every share is
    unmounted if no one else uses it, its rule revoked if no one else
    needs it, its mapping deleted. A share Manila cannot release now
    keeps its mapping in ``error`` with the reason, which a restart of
    tether-compute (or the next delete) tries again: nothing is left
    granted without a record of it."""
    failed = 0
    for mapping in db_shares.get_by_instance(context, instance_uuid):
        db_shares.transition(context, instance_uuid, mapping.share_id,
                             Status.ALL, Status.DETACHING)
        try:
            _release(context, host, mapping)
        except Exception as exc:  # noqa: BLE001 - the delete goes on
            failed += 1
            LOG.warning('Share %s of deleted server %s is not released '
                        'yet: %s', mapping.share_id, instance_uuid, exc)
            _fail(context, mapping, (Status.DETACHING,), exc)
    return failed


def reconcile(context, host, instances):
    """At start of tether-compute: finish the attaches and detaches its
    last run left under way, from Manila's truth (a rule already there is
    reused, one already gone counts as revoked), and release the shares
    of servers deleted since. ``instances``: {uuid: instance} of the
    live instances of this host. Returns how many mappings it
    settled."""
    count = 0
    gone = set()
    for mapping in db_shares.get_by_host(
            context, host.host,
            (Status.ATTACHING, Status.DETACHING, Status.ERROR)):
        instance = instances.get(mapping.instance_uuid)
        if instance is None:
            gone.add(mapping.instance_uuid)
            continue
        step = {Status.ATTACHING: allow,
                Status.DETACHING: deny}.get(mapping.status)
        if step is None:
            continue
        try:
            step(context, host, instance, mapping.share_id)
            count += 1
        except Exception:  # noqa: BLE001 - one share never stops a start
            LOG.exception('Could not settle share %s of server %s',
                          mapping.share_id, mapping.instance_uuid)
    for instance_uuid in sorted(gone):
        try:
            count += release_all(context, host, instance_uuid) == 0
        except Exception:  # noqa: BLE001 - one server never stops a start
            LOG.exception('Could not release the shares of deleted server '
                          '%s; the next start tries again', instance_uuid)
    return count
