"""What the volume manager does for each operation, as plain functions.

Each flow acts only if the volume is still in the state its claim left it
in, so a redelivered message or a reconciliation after a restart is a no-op
rather than a second run.
"""

import datetime

from oslo_log import log as logging
from oslo_utils import timeutils

from tether.db import session
from tether.db.volume import volume as db_volumes
from tether.objects import fields
from tether.volume import exception
from tether.volume.ops import volume_actions
from tether.volume import volume_state

LOG = logging.getLogger(__name__)
S = fields.VolumeStatus


def _fresh(context, volume_id):
    try:
        return db_volumes.get(context, volume_id)
    except exception.VolumeNotFound:
        return None


@session.VOLUME.writer
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
    volume_state.finish_delete(context, volume)


# Operations no message drives ---------------------------------------------

def stale(context, host, timeout):
    """The volumes of ``host`` creating or deleting, unchanged for over
    ``timeout`` seconds."""
    before = timeutils.utcnow() - datetime.timedelta(seconds=timeout)
    return db_volumes.get_all_by_host(context, host,
                                      [S.CREATING, S.DELETING],
                                      unchanged_since=before)


# Reconciliation after a restart -----------------------------------------

def reconcile(context, driver, host):
    """Finish or undo what this backend left half done; see the docs.

    * ``creating``: create again (the driver keeps a whole file).
    * ``deleting``: delete again (a missing file is fine).
    * ``extending``: see tether.volume.ops.volume_actions.reconcile.
    """
    volumes = db_volumes.get_all_by_host(
        context, host, [S.CREATING, S.DELETING, S.EXTENDING])
    for volume in volumes:
        LOG.info('Reconciling volume %s left %s', volume.id, volume.status)
        if volume.status == S.CREATING:
            create_volume(context, driver, volume.id)
        elif volume.status == S.DELETING:
            delete_volume(context, driver, volume.id)
        else:
            volume_actions.reconcile(context, driver, host, volume)
    return len(volumes)
