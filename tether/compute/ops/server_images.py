"""What the compute manager does for a snapshot of a server with a local
root disk into an image (createImage, createBackup: the API claimed the
server with task_state ``image_snapshot_pending`` or ``image_backup`` and
made the image record, ``queued``).

As Nova: ``image_snapshot`` while the disk is copied (a running guest is
paused meanwhile), ``image_pending_upload``, then ``image_uploading``
while the copy streams into the image, then no task. A backup then
deletes the oldest backups of its type past ``rotation``. A snapshot
that fails leaves the server as it was (no task), with the action's
event in error, and the image deleted; a server deleted meanwhile
stops it at its next step (its image goes too).
"""

from oslo_config import cfg
from oslo_log import log as logging

from tether.compute import exception
from tether.compute.ops import notifications
from tether.db.compute import instance as db_instances
from tether import images
from tether.objects import fields

CONF = cfg.CONF
LOG = logging.getLogger(__name__)

TaskState = fields.TaskState


def _step(context, instance, task_state, expected):
    return db_instances.update(context, instance.uuid,
                               {'task_state': task_state},
                               expected_task_state=expected,
                               action='snapshot')


def _give_up(context, client, instance, image_id):
    """After a failure: the image goes (unless it became active: then the
    snapshot is whole), the server's task with it (unless a delete came:
    the delete finishes the job)."""
    try:
        image = client.get(image_id)
        if image.get('status') != 'active':
            client.delete(image_id)
    except exception.ImageNotFound:
        pass
    except exception.TetherException as exc:
        LOG.warning('Could not delete image %s of a failed snapshot of '
                    '%s: %s', image_id, instance.uuid, exc)
    try:
        db_instances.update(context, instance.uuid, {'task_state': None},
                            expected_task_state=TaskState.IMAGE_SNAPSHOTS,
                            action='snapshot')
    except (exception.InstanceInvalidState, exception.InstanceNotFound):
        LOG.info('Server %s is being deleted: its snapshot stops',
                 instance.uuid)


def rotate(client, instance, backup_type, rotation):
    """Delete the backups of the server of ``backup_type`` but the newest
    ``rotation`` (Nova's rotation)."""
    backups = client.list(instance_uuid=instance.uuid, image_type='backup',
                          backup_type=backup_type, sort_key='created_at',
                          sort_dir='desc')
    for image in backups[rotation:]:
        LOG.info('Deleting backup %s of server %s (rotation %d of %s)',
                 image['id'], instance.uuid, rotation, backup_type)
        try:
            client.delete(image['id'])
        except exception.ImageNotFound:
            pass


def snapshot(context, host, instance, image_id, rotation=None):
    """Copy the server's local root disk and upload it into ``image_id``;
    for a backup (``rotation`` not None), then rotate its backups."""
    client = images.for_context(context)
    claimed = (TaskState.IMAGE_BACKUP if rotation is not None
               else TaskState.IMAGE_SNAPSHOT_PENDING)
    try:
        with notifications.around(context, host, instance, 'snapshot',
                                  image_id=image_id):
            taken = claimed
            if rotation is None:
                _step(context, instance, TaskState.IMAGE_SNAPSHOT, claimed)
                taken = TaskState.IMAGE_SNAPSHOT
            with host.driver.snapshot(instance.uuid,
                                      CONF.libvirt.snapshots_directory
                                      ) as path:
                _step(context, instance, TaskState.IMAGE_PENDING_UPLOAD,
                      taken)
                _step(context, instance, TaskState.IMAGE_UPLOADING,
                      TaskState.IMAGE_PENDING_UPLOAD)
                client.upload(image_id, path)
            _step(context, instance, None, TaskState.IMAGE_UPLOADING)
    except Exception:
        LOG.exception('Snapshot of server %s into image %s failed',
                      instance.uuid, image_id)
        _give_up(context, client, instance, image_id)
        raise
    LOG.info('Snapshotted server %s into image %s', instance.uuid, image_id)
    if rotation is not None:
        backup = client.get(image_id)
        rotate(client, instance, backup.get('backup_type'), rotation)
