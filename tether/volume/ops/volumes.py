"""What the volume manager does for each operation, as plain functions.

Each flow acts only if the volume is still in the state its claim left it
in, so a redelivered message or a reconciliation after a restart is a no-op
rather than a second run.
"""

import datetime

from oslo_log import log as logging
from oslo_utils import timeutils

from tether.db import session
from tether.db.volume import backup as db_backups
from tether.db.volume import snapshot as db_snapshots
from tether.db.volume import volume as db_volumes
from tether.objects import fields
from tether.volume.backup import rpcapi as backup_rpcapi
from tether.volume import backup_state
from tether.volume import exception
from tether.volume import group_state
from tether.volume import image_state
from tether.volume import messages
from tether.volume.ops import image_copy
from tether.volume.ops import image_upload
from tether.volume.ops import left_over
from tether.volume.ops import reimage
from tether.volume.ops import volume_actions
from tether.volume.ops import volume_revert
from tether.volume import volume_state

LOG = logging.getLogger(__name__)
S = fields.VolumeStatus
# The statuses of a create: ``downloading`` once the storage is made and
# the image (of a volume made from one) is being written into it. A
# volume being re-imaged is ``downloading`` too, with a previous status
# (tether.volume.image_state.reimaging); a create's has none.
CREATE_STATUSES = (S.CREATING, S.DOWNLOADING)
# The statuses a manager takes up again when it finds a volume left in
# them (see take_up).
LEFT_STATUSES = CREATE_STATUSES + (S.DELETING, S.UPLOADING, S.REVERTING)


def _fresh(context, volume_id):
    try:
        return db_volumes.get(context, volume_id)
    except exception.VolumeNotFound:
        return None


@session.VOLUME.writer
def _record_created(context, volume_id, model_update, status):
    """Record what the driver made (and the status it leads to) if the
    volume is still being created; True if it was."""
    model_update = dict(model_update)
    admin_metadata = model_update.pop('admin_metadata', {})
    if status in (S.AVAILABLE, S.RESTORING_BACKUP):
        model_update['launched_at'] = timeutils.utcnow()
    won = db_volumes.conditional_update(
        context, volume_id, dict(model_update, status=status),
        CREATE_STATUSES, extra=(db_volumes.previous_status_in([None]),))
    if won and admin_metadata:
        db_volumes.metadata_update(context, volume_id, admin_metadata,
                                   False, admin=True)
    return won


def _made(volume, model_update):
    """The volume object as the driver's ``model_update`` left it."""
    volume.provider_location = model_update.get('provider_location')
    volume.admin_metadata = dict(volume.admin_metadata,
                                 **model_update.get('admin_metadata', {}))


def _copy_source(context, driver, volume):
    """The data of the snapshot or volume the new volume is made of,
    copied into the storage the driver made (the API held the source
    available, and refuses its delete until the volume is made)."""
    if volume.snapshot_id:
        snapshot = db_snapshots.get(context, volume.snapshot_id)
        source = db_volumes.get(context, snapshot.volume_id)
        driver.create_volume_from_snapshot(volume, snapshot, source)
    else:
        driver.create_cloned_volume(
            volume, db_volumes.get(context, volume.source_volid))


def _write_image(context, driver, volume, model_update, image):
    """``downloading``: the image the volume names (``image``, if the
    API passed it), written into the storage the driver made."""
    if not _record_created(context, volume.id, model_update,
                           S.DOWNLOADING):
        return False
    _made(volume, model_update)
    image_copy.write_image(context, driver, volume, volume.image_id,
                           image=image)
    return True


def _record_failure(context, volume, exc):
    """The user message of a create that failed on the backend: of the
    image written into it, else of the driver (as Cinder's)."""
    if volume.image_id and not (volume.snapshot_id or volume.source_volid):
        messages.record(context, messages.Action.COPY_IMAGE_TO_VOLUME,
                        volume.id, volume.project_id, exception=exc)
    else:
        messages.record(context, messages.Action.CREATE_VOLUME_FROM_BACKEND,
                        volume.id, volume.project_id,
                        detail=messages.Detail.DRIVER_FAILED_CREATE)


def create_volume(context, driver, volume_id, image=None):
    """Make the volume's storage, and write into it what it is made of:
    a snapshot's or another volume's data, or an image (``image``: that
    image as the API read it, or None to read it here). A failure leaves
    the volume in ``error``, its quota given back. The last volume made
    of a group being made of a source makes the group available."""
    volume = _fresh(context, volume_id)
    if (volume is None or volume.status not in CREATE_STATUSES or
            image_state.reimaging(volume)):
        LOG.info('Volume %s is no longer creating; nothing to do', volume_id)
        return
    try:
        _create_volume(context, driver, volume, image)
    finally:
        if volume.group_id:
            group_state.settle_create(context, volume.group_id)


def _create_volume(context, driver, volume, image):
    volume_id = volume.id
    try:
        model_update = driver.create_volume(volume)
        if volume.snapshot_id or volume.source_volid:
            # (Its image metadata, if any, is its source's: no image to
            # write.)
            _made(volume, model_update)
            _copy_source(context, driver, volume)
        elif volume.image_id:
            if not _write_image(context, driver, volume, model_update,
                                image):
                LOG.warning('Volume %s changed state while it was created',
                            volume_id)
                return
            model_update = {'bootable': True}
    except Exception as exc:
        LOG.exception('Creating volume %s failed', volume_id)
        _record_failure(context, volume, exc)
        volume_state.fail_create(context, volume, CREATE_STATUSES)
        backup_state.abandon_restore(context, volume_id)
        return
    restore = db_backups.restoring_into(context, volume_id)
    if restore is not None:
        _hand_over(context, restore, volume_id, model_update)
    elif not _record_created(context, volume_id, model_update, S.AVAILABLE):
        LOG.warning('Volume %s changed state while it was created', volume_id)


def _hand_over(context, backup, volume_id, model_update):
    """A volume made for a restore (the API claimed ``backup``
    restoring into it): ``restoring-backup``, and tether-backup writes
    the backup into it (tether.volume.backup.restore)."""
    if not _record_created(context, volume_id, model_update,
                           S.RESTORING_BACKUP):
        LOG.warning('Volume %s changed state while it was created',
                    volume_id)
        return
    try:
        backup_rpcapi.get().restore_backup(context, backup, volume_id,
                                           volume_is_new=True)
    except Exception:
        LOG.exception('Could not cast the restore of backup %s into '
                      'volume %s', backup.id, volume_id)
        backup_state.end_restore(context, backup.id, volume_id,
                                 S.ERROR_RESTORING)


def delete_volume(context, driver, volume_id):
    volume = _fresh(context, volume_id)
    if volume is None or volume.status != S.DELETING:
        return
    try:
        driver.delete_volume(volume)
    except Exception:
        LOG.exception('Deleting volume %s failed', volume_id)
        db_volumes.conditional_update(context, volume_id,
                                      {'status': S.ERROR_DELETING},
                                      [S.DELETING])
        if volume.group_id:
            group_state.fail_delete(context, volume.group_id)
        return
    volume_state.finish_delete(context, volume)


# Operations no message drives ---------------------------------------------

def stale(context, host, timeout):
    """The volumes of ``host`` creating, deleting, uploading or being
    re-imaged, unchanged for over ``timeout`` seconds."""
    before = timeutils.utcnow() - datetime.timedelta(seconds=timeout)
    return db_volumes.get_all_by_host(context, host, LEFT_STATUSES,
                                      unchanged_since=before)


def take_up(context, driver, volume):
    """Run again, or undo, what ``volume`` (in one of LEFT_STATUSES) was
    left doing, as if its message came again:

    * being re-imaged: the image is written again (tether.volume.ops.
      reimage.take_up);
    * ``creating``, ``downloading``: create again (the driver keeps a
      whole file; the image is written again);
    * ``deleting``: delete again (a missing file is fine);
    * ``uploading``: the upload is given up, its unfinished image deleted
      (tether.volume.ops.image_upload.give_up);
    * ``reverting``: the revert is run again (tether.volume.ops.
      volume_revert.take_up).
    """
    if image_state.reimaging(volume):
        reimage.take_up(context, driver, volume)
    elif volume.status in CREATE_STATUSES:
        create_volume(context, driver, volume.id)
    elif volume.status == S.DELETING:
        delete_volume(context, driver, volume.id)
    elif volume.status == S.UPLOADING:
        image_upload.give_up(context, volume)
    elif volume.status == S.REVERTING:
        volume_revert.take_up(context, driver, volume)


# Reconciliation after a restart -----------------------------------------

def reconcile(context, driver, host, stopping=None):
    """Finish or undo what this backend left half done; see the docs:
    :func:`take_up`, and for ``extending``
    tether.volume.ops.volume_actions.reconcile. A volume whose take-up
    raises stays as it was (the periodic re-drive takes it up again,
    :func:`stale`); returns a tether.volume.ops.left_over.Tally."""
    volumes = db_volumes.get_all_by_host(context, host,
                                         LEFT_STATUSES + (S.EXTENDING,))

    def one(volume):
        LOG.info('Reconciling volume %s left %s', volume.id, volume.status)
        if volume.status == S.EXTENDING:
            volume_actions.reconcile(context, driver, host, volume)
        else:
            take_up(context, driver, volume)

    return left_over.each('volume', volumes, one, stopping)
