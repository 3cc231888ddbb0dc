"""Business rules of Cinder's legacy attach and connection actions
(os-attach, os-detach, os-initialize_connection, os-terminate_connection,
os-force_detach); runs in the API process.

They work on attachment rows, as the attachments API does, and reuse it:
os-initialize_connection connects os-reserve's reservation through the
same synchronous call to the volume manager as an attachment update with
a connector; os-terminate_connection and os-detach delete attachments as
``DELETE /attachments/{id}`` does. The volume's status follows its
attachments (tether.volume.attachment_state).
"""

from oslo_serialization import jsonutils
from oslo_utils import timeutils
from oslo_utils import uuidutils

from tether.db import session
from tether.db.volume import attachment as db_attachments
from tether.db.volume import volume as db_volumes
from tether.volume.api import attachments as attachments_api
from tether.volume import attachment_state as state
from tether.volume import exception
from tether.volume import rpcapi

AS = state.AS
S = state.S


def _not_in_maintenance(volume, what):
    if volume.status == S.MAINTENANCE:
        raise exception.InvalidVolume(
            reason='volume %s is maintenance; it cannot be %s'
                   % (volume.id, what))


# os-attach ------------------------------------------------------------------

def _same_consumer(attachment, instance_uuid, host_name):
    if attachment.attach_status != AS.ATTACHED:
        return False
    if instance_uuid:
        return attachment.instance_uuid == instance_uuid
    return (attachment.instance_uuid is None and
            attachment.attached_host == host_name)


def _claim_unreserved(context, volume):
    """os-attach without os-reserve, as Cinder allows: the claim of
    os-reserve (available, or in-use if multiattach)."""
    if volume.multiattach:
        allowed, extra = (S.AVAILABLE, S.IN_USE), ()
    else:
        allowed, extra = (S.AVAILABLE,), (db_attachments.no_attachments(),)
    if db_volumes.conditional_update(context, volume.id, {}, allowed,
                                     extra=extra):
        return
    if volume.status in allowed:
        raise exception.InvalidVolume(
            reason='volume %s is %s and not multiattach: it already has '
                   'an attachment' % (volume.id, volume.status))
    raise exception.InvalidVolume(
        reason='volume %s is %s; it can be attached only when it is %s (or '
               'reserved with os-reserve)'
               % (volume.id, volume.status, ' or '.join(allowed)))


@session.VOLUME.writer
def attach(context, volume_id, instance_uuid, host_name, mountpoint, mode):
    """Mark os-reserve's reservation (or a new attachment) attached to
    the instance or host; the volume is in-use. Returns the attachment."""
    volume = db_attachments.lock_volume(context, volume_id,
                                        context.project_scope)
    _not_in_maintenance(volume, 'attached')
    admin = db_volumes.admin_metadata(context, volume_id)
    if admin.get('readonly') == 'True' and mode != 'ro':
        raise exception.InvalidVolume(
            reason='volume %s is read-only; it can be attached in mode ro '
                   'only, not %s' % (volume_id, mode))
    for attachment in db_attachments.get_for_volume(context, volume_id):
        if _same_consumer(attachment, instance_uuid, host_name):
            return attachment   # attached already, as Cinder answers
    values = {'attach_status': AS.ATTACHED, 'instance_uuid': instance_uuid,
              'mountpoint': mountpoint, 'attach_mode': mode,
              'attach_time': timeutils.utcnow()}
    if host_name:
        values['attached_host'] = host_name
    pending = db_attachments.legacy_pending(context, volume_id)
    if pending is not None and volume.status in state.FOLLOWS_ATTACHMENTS:
        # Under the volume's lock: nothing else changes it meanwhile.
        db_attachments.conditional_update(
            context, pending.id, values, [AS.ATTACHING],
            extra=db_attachments.pending()[1:])
        attachment_id = pending.id
    else:
        _claim_unreserved(context, volume)
        attachment_id = uuidutils.generate_uuid()
        db_attachments.insert(context, dict(values, id=attachment_id,
                                            volume_id=volume_id))
    state.recompute(context, volume_id)
    return db_attachments.get(context, attachment_id)


# os-detach, os-force_detach --------------------------------------------------

@session.VOLUME.writer
def _settle(context, volume_id):
    """The volume's status from its attachments (a detach of none)."""
    db_attachments.lock_volume(context, volume_id)
    state.recompute(context, volume_id)


def detach(context, volume, attachment_id=None, force=False):
    """Delete one attachment of the volume (the one named, or its only
    one), disconnecting it on the backend if it was connected. An
    attachment ID the volume does not have detaches nothing and sets the
    volume's status from its attachments, as Cinder does."""
    _not_in_maintenance(volume, 'detached')
    attachments = attachments_api.get_for_volume(context, volume.id)
    if attachment_id:
        attachments = [a for a in attachments if a.id == attachment_id]
    elif len(attachments) > 1:
        raise exception.InvalidVolume(
            reason='volume %s has %d attachments (%s); name the one to '
                   'detach with attachment_id'
                   % (volume.id, len(attachments),
                      ', '.join(a.id for a in attachments)))
    if not attachments:
        _settle(context, volume.id)
        return
    try:
        attachments_api.delete(context, attachments[0], force=force)
    except exception.AttachmentNotFound:
        _settle(context, volume.id)   # deleted meanwhile


# os-initialize_connection, os-terminate_connection ---------------------------

def _connected_on(attachments, host, statuses):
    return [a for a in attachments
            if a.connector and a.attached_host == host and
            a.attach_status in statuses]


@session.VOLUME.writer
def _claim_reservation(context, volume_id, connector):
    """Claim os-reserve's reservation for ``connector``; or return the
    attachment already connected on the connector's host."""
    volume = db_attachments.lock_volume(context, volume_id,
                                        context.project_scope)
    _not_in_maintenance(volume, 'connected')
    # As an attachment update: a read-only volume connects ro whatever
    # the connector asks.
    if db_volumes.admin_metadata(context, volume_id).get(
            'readonly') == 'True':
        connector['mode'] = 'ro'
    reservation = db_attachments.legacy_reservation(context, volume_id)
    if reservation is None or volume.status not in state.FOLLOWS_ATTACHMENTS:
        attachments = db_attachments.get_for_volume(context, volume_id)
        for attachment in _connected_on(attachments, connector.get('host'),
                                        state.LIVE):
            if attachment.connection_info:
                return volume, attachment, False
        raise exception.InvalidVolume(
            reason='volume %s is %s and has no reservation to connect on '
                   'host %s: reserve it first (os-reserve)'
                   % (volume_id, volume.status, connector.get('host')))
    db_attachments.conditional_update(
        context, reservation.id,
        {'connector': jsonutils.dumps(connector),
         'attached_host': connector.get('host'),
         'mountpoint': connector.get('mountpoint'),
         'attach_mode': connector['mode']},
        [AS.ATTACHING], extra=[db_attachments.never_connected()])
    return volume, db_attachments.get(context, reservation.id), True


def initialize_connection(context, volume, connector):
    """Connect os-reserve's reservation for ``connector`` (the volume
    manager asks the driver); its connection info."""
    connector = dict(connector, mode=connector.get('mode') or 'rw')
    rpcapi.get().check_attachment_calls('connecting a volume')
    volume, attachment, claimed = _claim_reservation(context, volume.id,
                                                     connector)
    if claimed:
        attachment = attachments_api.connect_claimed(context, volume,
                                                     attachment, connector)
    if not attachment.connection_info:
        raise exception.AttachmentConnectFailed(
            volume_id=volume.id, attachment_id=attachment.id,
            reason='the volume service did not answer in time')
    return dict(attachment.connection_info)


def terminate_connection(context, volume, connector, force=False):
    """Disconnect the volume from the connector's host: delete its
    attachment there (one not attached yet first). Nothing to do if it
    has none there."""
    host = (connector or {}).get('host')
    attachments = attachments_api.get_for_volume(context, volume.id)
    found = (_connected_on(attachments, host,
                           (AS.ATTACHING, AS.ERROR_ATTACHING)) or
             _connected_on(attachments, host, (AS.ATTACHED,)))
    if not found:
        return False
    try:
        attachments_api.delete(context, found[0], force=force)
    except exception.AttachmentNotFound:
        pass   # deleted meanwhile
    return True


def force_detach(context, volume, connector=None, attachment_id=None):
    """An administrator's detach: disconnect (the connector's host), then
    detach (the attachment named, or the volume's only one), without
    asking the compute service whether a guest uses it."""
    if connector:
        terminate_connection(context, volume, connector, force=True)
    detach(context, volume, attachment_id, force=True)
