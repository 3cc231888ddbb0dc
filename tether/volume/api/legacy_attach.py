"""Business rules of Cinder's legacy attach actions (os-reserve,
os-unreserve, os-begin_detaching, os-roll_detaching); runs in the API
process.

They keep tether's one rule: a volume's status follows its attachments
(tether.volume.attachment_state). os-reserve therefore records an
attachment row, as Cinder's os-attach does (``attaching``, no connector:
Cinder's volume shows ``attaching`` after os-reserve, and so does
tether's); os-unreserve removes it. os-begin_detaching and
os-roll_detaching change the volume's status only, as Cinder does. Every
step runs under the volume's row lock with one conditional UPDATE.
"""

from oslo_utils import uuidutils

from tether.db import session
from tether.db.volume import attachment as db_attachments
from tether.db.volume import volume as db_volumes
from tether.volume import attachment_state as state
from tether.volume import exception

AS = state.AS
S = state.S


def _reserve_refusal(context, volume, allowed):
    expected = ' or '.join(allowed)
    if volume.status in allowed:
        # Available, but not multiattach and with attachments (in error).
        other = db_attachments.first_of_volume(context, volume.id)
        return exception.InvalidVolume(
            reason='volume %s is %s but not multiattach, and it has '
                   'attachment %s (%s); delete it first'
                   % (volume.id, volume.status, other.id,
                      other.attach_status))
    return exception.InvalidVolume(
        reason='Volume status must be %s to reserve, but the status is %s'
               % (expected, volume.status))


@session.VOLUME.writer
def reserve(context, volume_id):
    """available -> attaching (a multiattach volume also from in-use),
    recording the reservation as an attachment without a connector."""
    volume = db_attachments.lock_volume(context, volume_id,
                                        context.project_scope)
    if volume.multiattach:
        allowed, extra = (S.AVAILABLE, S.IN_USE), ()
    else:
        allowed, extra = (S.AVAILABLE,), (db_attachments.no_attachments(),)
    if not db_volumes.conditional_update(context, volume_id, {}, allowed,
                                         extra=extra):
        raise _reserve_refusal(context, volume, allowed)
    attachment = db_attachments.insert(context, {
        'id': uuidutils.generate_uuid(), 'volume_id': volume_id,
        'attach_status': AS.ATTACHING})
    state.recompute(context, volume_id)
    return attachment


@session.VOLUME.writer
def unreserve(context, volume_id):
    """Remove the reservation os-reserve recorded: the volume is in-use
    if it has attachments left, else available. Without a reservation,
    nothing to do (Cinder's answer is a 202 then too). True if one was
    removed."""
    db_attachments.lock_volume(context, volume_id, context.project_scope)
    reservation = db_attachments.legacy_reservation(context, volume_id)
    if reservation is None:
        return False
    removed = db_attachments.destroy(
        context, reservation.id, [AS.ATTACHING],
        extra=[db_attachments.never_connected()])
    if removed:
        state.recompute(context, volume_id)
    return removed


@session.VOLUME.writer
def begin_detaching(context, volume_id):
    """in-use (attached) -> detaching."""
    values = {'status': S.DETACHING}
    if db_volumes.conditional_update(
            context, volume_id, values, [S.IN_USE], context.project_scope,
            extra=(db_volumes.attach_status_in([AS.ATTACHED]),)):
        return
    current = db_volumes.get(context, volume_id, context.project_scope)
    raise exception.InvalidVolume(
        reason='Unable to detach volume %s: its status is %s and its '
               'attach_status %s; they must be in-use and attached'
               % (volume_id, current.status, current.attach_status))


@session.VOLUME.writer
def roll_detaching(context, volume_id):
    """detaching -> in-use, unless an attachment is being deleted (then
    the volume is detaching because of it and stays so). Anything else
    is left alone, as Cinder does. True if the status changed."""
    return db_volumes.conditional_update(
        context, volume_id, {'status': S.IN_USE}, [S.DETACHING],
        context.project_scope,
        extra=(db_attachments.none_in([state.BEING_DELETED]),))
