"""The states of the image actions of a volume, run by the API process
and by tether-volume: an upload to an image (``uploading``) and a
re-image (``downloading``, with the status it came from in
``previous_status``).

Each step is one transaction under the volume's row lock, with one
conditional update that names the state it starts from: a step that
finds the volume moved on (a reset, a second message) does nothing and
says so. Both actions end where they started: in the status the volume
had (or, for a status its attachments decide, in the one they decide
now); a re-image that fails ends in ``error``.
"""

from tether.db import session
from tether.db.volume import attachment as db_attachments
from tether.db.volume import snapshot as db_snapshots
from tether.db.volume import volume as db_volumes
from tether.objects import fields
from tether.objects.volume import volume as volume_obj
from tether.volume import attachment_state
from tether.volume import exception
from tether.volume import volume_image

S = fields.VolumeStatus
UPLOAD_IMAGE_ID = volume_obj.UPLOAD_IMAGE_ID
REIMAGE_IMAGE_ID = volume_obj.REIMAGE_IMAGE_ID

# Where an upload may start: an in-use volume only when forced.
UPLOAD_FROM = (S.AVAILABLE,)
FORCED_UPLOAD_FROM = (S.AVAILABLE, S.IN_USE)
# Where a re-image may start (Cinder's): reserved only when asked for, as
# the compute service asks in a rebuild.
REIMAGE_FROM = (S.AVAILABLE, S.ERROR)
REIMAGE_RESERVED_FROM = (S.AVAILABLE, S.ERROR, S.RESERVED)


def reimaging(volume):
    """Whether the volume is being re-imaged: ``downloading`` with a
    previous status. A volume made from an image is ``downloading`` too,
    but has none (it never had another status)."""
    return (volume.status == S.DOWNLOADING and
            volume.previous_status is not None)


def _claim(context, volume, status, statuses):
    """``status`` from the status read before (if it changed since, the
    claim fails naming the new one), which it records as the previous
    status: where the action returns."""
    expected = [volume.status] if volume.status in statuses else statuses
    return db_volumes.transition(
        context, volume.id, {'status': status,
                             'previous_status': volume.status},
        expected, context.project_scope)


def _return(context, volume, values=None):
    """From the action's status back to the previous one (the status the
    attachments decide now, for one they decide: they may have changed
    meanwhile). True if this caller did."""
    previous = volume.previous_status or S.AVAILABLE
    won = db_volumes.conditional_update(
        context, volume.id,
        dict(values or {}, status=previous, previous_status=volume.status),
        [volume.status])
    if won and previous in attachment_state.FOLLOWS_ATTACHMENTS:
        attachment_state.recompute(context, volume.id)
    return won


def _locked(context, volume_id, status, key, image_id=None):
    """The volume (locked) if it is in ``status`` and its admin metadata
    names an image under ``key`` (``image_id``, if given); else None."""
    try:
        volume = db_attachments.lock_volume(context, volume_id)
    except exception.VolumeNotFound:
        return None
    if volume.status != status:
        return None
    recorded = db_volumes.admin_metadata(context, volume_id).get(key)
    if image_id is not None and recorded != image_id:
        return None
    return volume


# Upload ----------------------------------------------------------------------

@session.VOLUME.writer
def claim_upload(context, volume, force=False):
    """``uploading``, from ``available`` (or ``in-use``, forced)."""
    return _claim(context, volume, S.UPLOADING,
                  FORCED_UPLOAD_FROM if force else UPLOAD_FROM)


@session.VOLUME.writer
def record_upload(context, volume_id, image_id):
    """Record the image an upload fills, if the volume is still
    ``uploading``; True if it was."""
    volume = _locked(context, volume_id, S.UPLOADING, UPLOAD_IMAGE_ID)
    if volume is None:
        return False
    db_volumes.admin_metadata_set(context, volume_id,
                                  {UPLOAD_IMAGE_ID: image_id})
    return True


@session.VOLUME.writer
def end_upload(context, volume_id, image_id=None):
    """An upload is over (done, failed or given up): the volume returns
    to its previous status and forgets the image. With ``image_id``, only
    the upload of that image. True if this caller ended it."""
    volume = _locked(context, volume_id, S.UPLOADING, UPLOAD_IMAGE_ID,
                     image_id)
    if volume is None:
        return False
    db_volumes.admin_metadata_remove(context, volume_id, [UPLOAD_IMAGE_ID])
    return _return(context, volume)


# Re-image ----------------------------------------------------------------

@session.VOLUME.writer
def claim_reimage(context, volume, image_id, reimage_reserved=False):
    """``downloading`` (the status it came from in previous_status, the
    image in admin metadata), from ``available`` or ``error`` (or
    ``reserved``, with ``reimage_reserved``); refused with more than one
    attachment or with snapshots (counted under the volume's lock)."""
    db_attachments.lock_volume(context, volume.id, context.project_scope)
    attachments = db_attachments.statuses_of_volume(context, volume.id)
    if len(attachments) > 1:
        raise exception.VolumeAttachedToMany(volume_id=volume.id,
                                             count=len(attachments))
    snapshots = db_snapshots.of_volume_in_transaction(context, volume.id)
    if snapshots:
        # Its snapshots are layers of its files: an image written over
        # them would not be the volume's whole data.
        raise exception.InvalidVolume(
            reason='volume %s has %d snapshots; delete them before it is '
                   're-imaged' % (volume.id, len(snapshots)))
    claimed = _claim(context, volume, S.DOWNLOADING,
                     REIMAGE_RESERVED_FROM if reimage_reserved
                     else REIMAGE_FROM)
    db_volumes.admin_metadata_set(context, volume.id,
                                  {REIMAGE_IMAGE_ID: image_id})
    return claimed


def _reimaging(context, volume_id, image_id):
    volume = _locked(context, volume_id, S.DOWNLOADING, REIMAGE_IMAGE_ID,
                     image_id)
    if volume is None or not reimaging(volume):
        return None
    db_volumes.admin_metadata_remove(context, volume_id, [REIMAGE_IMAGE_ID])
    return volume


@session.VOLUME.writer
def end_reimage(context, volume_id, image):
    """The image is written: the volume is bootable, its image metadata
    all the image's (no key of the old image is left), and it returns to
    its previous status. That status, or None if the volume was no longer
    being re-imaged with ``image``."""
    volume = _reimaging(context, volume_id, image['id'])
    if volume is None:
        return None
    db_volumes.image_metadata_replace_in_transaction(
        context, volume_id, volume_image.metadata(image))
    _return(context, volume, {'bootable': True})
    return volume.previous_status


@session.VOLUME.writer
def fail_reimage(context, volume_id, image_id=None):
    """The re-image failed: ``error``, as in Cinder (what the volume holds
    is not known). The status the volume had before, or None if it was no
    longer being re-imaged (with ``image_id``, if given)."""
    volume = _reimaging(context, volume_id, image_id)
    if volume is None:
        return None
    db_volumes.conditional_update(
        context, volume_id,
        {'status': S.ERROR, 'previous_status': S.DOWNLOADING},
        [S.DOWNLOADING])
    return volume.previous_status


@session.VOLUME.writer
def undo_reimage(context, volume_id, image_id):
    """A re-image that never reached tether-volume (its message could not
    be sent): the volume returns to its previous status, untouched."""
    volume = _reimaging(context, volume_id, image_id)
    return volume is not None and _return(context, volume)
