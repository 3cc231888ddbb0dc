"""How a volume's status follows its attachments (API and manager alike).

Every change of an attachment locks its volume's row, changes the
attachment with one conditional UPDATE, and sets the volume's status from
the attachments it then has, all in one transaction.
"""

from tether.db import session
from tether.db.volume import attachment as db_attachments
from tether.db.volume import volume as db_volumes
from tether.objects import fields

AS = fields.VolumeAttachStatus
S = fields.VolumeStatus

# The volume statuses its attachments decide. In any other (extending,
# deleting, error ...) a change of attachments leaves the status alone.
FOLLOWS_ATTACHMENTS = (S.AVAILABLE, S.RESERVED, S.ATTACHING, S.IN_USE,
                       S.DETACHING)

# A delete claims its attachment as ``detached`` until the row goes.
BEING_DELETED = AS.DETACHED
# Attachments that use (or are about to use) a host's connection.
LIVE = (AS.ATTACHING, AS.ATTACHED)
# Every status an attachment row may have while it exists.
ALL = (AS.RESERVED, AS.ATTACHING, AS.ATTACHED, AS.DETACHED,
       AS.ERROR_ATTACHING, AS.ERROR_DETACHING)

# Upstream's order (alphabetical, as it happens): the first attachment
# status present decides the volume's (status, attach_status). Attachments
# in error count for nothing.
_PRECEDENCE = (
    (AS.ATTACHED, S.IN_USE, AS.ATTACHED),
    (AS.ATTACHING, S.ATTACHING, AS.ATTACHING),
    (AS.DETACHED, S.DETACHING, AS.ATTACHED),
    (AS.RESERVED, S.RESERVED, AS.RESERVED),
)


def volume_status_for(attach_statuses):
    """(status, attach_status) of a volume with these attachments."""
    present = set(attach_statuses)
    for attach_status, status, volume_attach_status in _PRECEDENCE:
        if attach_status in present:
            return status, volume_attach_status
    return S.AVAILABLE, AS.DETACHED


def recompute(context, volume_id):
    """Set the volume's status from its attachments (in a transaction
    that holds the volume's lock); returns the status it should have."""
    status, attach_status = volume_status_for(
        db_attachments.statuses_of_volume(context, volume_id))
    db_volumes.follow_attachments(context, volume_id, status, attach_status,
                                  FOLLOWS_ATTACHMENTS)
    return status


@session.VOLUME.writer
def change(context, attachment_id, volume_id, values, expected, extra=()):
    """One attachment transition, and the volume's status after it."""
    db_attachments.lock_volume(context, volume_id)
    won = db_attachments.conditional_update(context, attachment_id, values,
                                            expected, extra)
    if won:
        recompute(context, volume_id)
    return won


@session.VOLUME.writer
def remove(context, attachment_id, volume_id, expected, extra=()):
    """Delete an attachment row, and set the volume's status after it."""
    db_attachments.lock_volume(context, volume_id)
    won = db_attachments.destroy(context, attachment_id, expected, extra)
    if won:
        recompute(context, volume_id)
    return won
