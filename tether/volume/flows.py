"""What the volume manager does for each operation, as plain functions.

Each flow acts only if the volume is still in the state its claim left it
in, so a redelivered message or a reconciliation after a restart is a no-op
rather than a second run.
"""

from oslo_log import log as logging
from oslo_utils import timeutils

from tether.db import quotas as db_quotas
from tether.db import session
from tether.db import volumes as db_volumes
from tether.drivers.volume import driver as base_driver
from tether import exception
from tether.objects import fields
from tether.objects import volume as volume_obj

LOG = logging.getLogger(__name__)
S = fields.VolumeStatus


def _fresh(context, volume_id):
    try:
        return volume_obj.Volume.from_db(db_volumes.get(context, volume_id))
    except exception.VolumeNotFound:
        return None


@session.writer
def _finish_create(context, volume_id, model_update):
    admin_metadata = model_update.pop('admin_metadata', {})
    won = db_volumes.conditional_update(
        context, volume_id,
        dict(model_update, status=S.AVAILABLE,
             launched_at=timeutils.utcnow()), [S.CREATING])
    if won and admin_metadata:
        db_volumes.metadata_update(context, volume_id, admin_metadata,
                                   False, admin=True)
    return won


def create_volume(context, driver, volume_id):
    volume = _fresh(context, volume_id)
    if volume is None or volume.status != S.CREATING:
        LOG.info('Volume %s is no longer creating; nothing to do', volume_id)
        return
    try:
        model_update = driver.create_volume(volume)
    except Exception:
        LOG.exception('Creating volume %s failed', volume_id)
        db_volumes.conditional_update(context, volume_id,
                                      {'status': S.ERROR}, [S.CREATING])
        return
    if not _finish_create(context, volume_id, model_update):
        LOG.warning('Volume %s changed state while it was created', volume_id)


@session.writer
def finish_delete(context, volume):
    """Remove a ``deleting`` volume's row and give its quota back, at once."""
    if db_volumes.destroy_in_transaction(context, volume.id, [S.DELETING]):
        db_quotas.release_in_transaction(
            context, volume.project_id,
            {'volumes': 1, 'gigabytes': volume.size})
        db_quotas.rollback(context, db_quotas.get_reservations_for(
            context, volume.id))


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
        return
    finish_delete(context, volume)


@session.writer
def finish_extend(context, volume_id, new_size, reservations, error):
    """Settle an extend: commit and grow, or roll back and mark the error."""
    volume = db_volumes.get(context, volume_id)
    if volume.status != S.EXTENDING:
        return False
    if error:
        db_quotas.rollback(context, reservations)
        values = {'status': S.ERROR_EXTENDING}
    else:
        db_quotas.commit(context, reservations)
        values = {'status': volume.previous_status or S.AVAILABLE,
                  'previous_status': S.EXTENDING, 'size': new_size}
    return db_volumes.conditional_update(context, volume_id, values,
                                         [S.EXTENDING])


def extend_volume(context, driver, volume_id, new_size, reservations):
    volume = _fresh(context, volume_id)
    if volume is None or volume.status != S.EXTENDING:
        LOG.info('Volume %s is no longer extending; nothing to do',
                 volume_id)
        return
    try:
        driver.extend_volume(volume, new_size)
    except Exception:
        LOG.exception('Extending volume %s to %sG failed', volume_id,
                      new_size)
        finish_extend(context, volume_id, new_size, reservations, error=True)
        return
    finish_extend(context, volume_id, new_size, reservations, error=False)


# Reconciliation after a restart -----------------------------------------

def _pending_extend(context, volume):
    """(new_size, reservations) of an unfinished extend, from its quota."""
    uuids = db_quotas.get_reservations_for(context, volume.id)
    delta = db_quotas.reservation_delta(context, uuids, 'gigabytes')
    return volume.size + delta, uuids


def reconcile(context, driver, host):
    """Finish or undo what this backend left half done; see the docs.

    * ``creating``: create again (the driver keeps a whole file).
    * ``deleting``: delete again (a missing file is fine).
    * ``extending``: if the file already has the new size, commit the
      extend; otherwise roll back its reservations and return the volume to
      its previous status: the extend did not happen, and may be retried.
    """
    volumes = db_volumes.get_all_by_host(
        context, host, [S.CREATING, S.DELETING, S.EXTENDING])
    for db_volume in volumes:
        volume = volume_obj.Volume.from_db(db_volume)
        LOG.info('Reconciling volume %s left %s', volume.id, volume.status)
        if volume.status == S.CREATING:
            create_volume(context, driver, volume.id)
        elif volume.status == S.DELETING:
            delete_volume(context, driver, volume.id)
        else:
            new_size, uuids = _pending_extend(context, volume)
            try:
                grown = (driver.get_volume_size(volume)
                         >= new_size * base_driver.GiB > 0)
            except Exception:
                LOG.exception('Could not read the size of volume %s',
                              volume.id)
                grown = False
            if grown and new_size > volume.size:
                finish_extend(context, volume.id, new_size, uuids,
                              error=False)
            else:
                _abandon_extend(context, volume.id, uuids)
    return len(volumes)


@session.writer
def _abandon_extend(context, volume_id, reservations):
    db_quotas.rollback(context, reservations)
    volume = db_volumes.get(context, volume_id)
    db_volumes.conditional_update(
        context, volume_id,
        {'status': volume.previous_status or S.AVAILABLE,
         'previous_status': S.EXTENDING}, [S.EXTENDING])
