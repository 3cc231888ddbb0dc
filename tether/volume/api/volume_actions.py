"""The actions on a volume that change its state (os-extend,
os-extend_volume_completion, os-reset_status, os-volume_upload_image,
os-reimage), in the API process."""

from oslo_config import cfg
from oslo_log import log as logging
from oslo_utils import excutils

from tether.db import session
from tether.db.volume import attachment as db_attachments
from tether.db.volume import quota as db_quotas
from tether.db.volume import volume as db_volumes
from tether import images
from tether.objects import fields
from tether.objects.volume import volume as volume_obj
from tether.volume import exception
from tether.volume import extend_state
from tether.volume import image_state
from tether.volume import quota
from tether.volume import rpcapi
from tether.volume import volume_image

CONF = cfg.CONF
LOG = logging.getLogger(__name__)
S = fields.VolumeStatus
# What the image actions keep in admin metadata while they run.
_IMAGE_ACTION_KEYS = (volume_obj.UPLOAD_IMAGE_ID, volume_obj.REIMAGE_IMAGE_ID)


def extend(context, volume, new_size, allow_attached=False):
    """Claim ``extending``, reserve the quota, ask the backend.

    ``volume`` is as the caller read it: the claim holds only if its
    status and size are still those. ``allow_attached`` (3.42) lets an
    ``in-use`` volume be extended: its server's hypervisor grows the disk
    (see tether.volume.extend_state).
    """
    if new_size <= volume.size:
        raise exception.InvalidInput(
            reason='new size %(new)sG must be greater than the current size '
                   '%(size)sG' % {'new': new_size, 'size': volume.size})
    statuses = [S.AVAILABLE, S.IN_USE] if allow_attached else [S.AVAILABLE]
    reservations = _claim_extend(context, volume, new_size, statuses)
    volume.status = S.EXTENDING
    try:
        rpcapi.get().extend_volume(context, volume, new_size, reservations)
    except Exception:
        with excutils.save_and_reraise_exception():
            extend_state.abandon(context, volume.id, reservations)


@db_quotas.retry_on_duplicate
@session.VOLUME.writer
def _claim_extend(context, volume, new_size, statuses):
    """Claim ``extending`` (from one of ``statuses``) and reserve the
    quota, at once.

    One transaction, with the read of the project's limits: no writer (an
    os-reset_status) can come between the claim and the reservation and
    leave the reservation behind; over quota, the claim is undone with it.
    The size was read before: the claim holds only if it is unchanged, or
    the reservation would be for the wrong delta.
    """
    limits = quota.check_per_volume_size(context, volume.project_id,
                                         new_size)
    # From the status read before (if it changed since, the claim fails
    # naming the new one): it is where a rolled-back extend returns.
    expected = [volume.status] if volume.status in statuses else statuses
    db_volumes.transition(
        context, volume.id,
        {'status': S.EXTENDING, 'previous_status': volume.status},
        expected, context.project_scope, expected_size=volume.size,
        read_back=False)
    deltas = quota.with_type({'gigabytes': new_size - volume.size},
                             quota.volume_type_name(context, volume))
    return quota.reserve(context, volume.project_id, deltas,
                         limits=limits, resource_id=volume.id)


def complete_extend(context, volume_id, error, project_id=None,
                    authorize=None):
    """os-extend_volume_completion: the compute host grew the volume (or
    could not). Unlike the manager's own settlement, a volume with nothing
    to settle is the caller's error (VolumeNotExtending).

    One transaction reads the volume (of ``project_id``, if given), lets
    ``authorize`` refuse the caller, and settles it.
    """
    outcome = extend_state.settle(context, volume_id, error, waiting=True,
                                  project_id=project_id,
                                  authorize=authorize)
    extend_state.report(
        context, outcome,
        why='its compute host could not grow it' if error else None)
    return outcome.volume


@session.VOLUME.writer
def reset_status(context, volume_id, status=None, attach_status=None,
                 migration_status=None):
    """Admin override of a volume's status; settles an extend in flight."""
    if status in fields.RESET_STATUS_REFUSED:
        raise exception.InvalidInput(
            reason='os-reset_status cannot set status %s' % status)
    # The volume's lock: no attachment changes while this decides.
    current = db_attachments.lock_volume(context, volume_id)
    attached = fields.VolumeAttachStatus.ATTACHED in \
        db_attachments.statuses_of_volume(context, volume_id)
    if status == S.IN_USE and not attached:
        raise exception.InvalidInput(
            reason='cannot set status in-use: the volume has no attached '
                   'attachment')
    if attach_status == fields.VolumeAttachStatus.ATTACHED and not attached:
        raise exception.InvalidInput(
            reason='cannot set attach_status attached: the volume has no '
                   'attached attachment')
    if attach_status == fields.VolumeAttachStatus.DETACHED:
        # As Cinder: the administrator says nothing is attached any more;
        # the attachments go (without asking the backend).
        db_attachments.destroy_all_for_volume(context, volume_id)
    values = {}
    if status:
        values['status'] = status
    if attach_status:
        values['attach_status'] = attach_status
    if current.status == S.EXTENDING and status and status != S.EXTENDING:
        # The extend in flight is abandoned: give its reservations back
        # (those a waiting extend stored are the same ones) and forget
        # what it waited for.
        db_quotas.rollback(context,
                           db_quotas.get_reservations_for(context, volume_id))
        db_volumes.admin_metadata_remove(
            context, volume_id, (volume_obj.EXTEND_NEW_SIZE,
                                 volume_obj.EXTEND_RESERVATIONS))
    if (current.status in (S.UPLOADING, S.DOWNLOADING) and status and
            status != current.status):
        # The upload or re-image is abandoned: a restart must not take it
        # up again.
        db_volumes.admin_metadata_remove(context, volume_id,
                                         _IMAGE_ACTION_KEYS)
    if values:
        # Conditional on the status read above, so a concurrent transition
        # between the read and this write makes the reset fail loudly.
        db_volumes.transition(context, volume_id, values, [current.status])


def _quietly(what, call, *args):
    try:
        call(*args)
    except Exception:
        LOG.exception('Could not %s', what)


def upload_image(context, volume, image_values, force=False):
    """os-volume_upload_image: claim ``uploading``, create the image (with
    the caller's token: the caller's project owns it), ask the backend to
    fill it. Returns (the volume claimed, the image as created).

    ``image_values``: name, disk_format, container_format (and visibility,
    protected); the image also takes the properties of the volume's image
    metadata (volume_image.upload_properties). Every failure before the
    backend has the work leaves the volume as it was and no image.
    """
    rpcapi.get().check_image_actions('uploading a volume to an image')
    if force and not CONF.enable_force_upload:
        LOG.info('Volume %s: "force" is ignored, [DEFAULT] '
                 'enable_force_upload is false', volume.id)
        force = False
    volume = image_state.claim_upload(context, volume, force)
    client = images.for_caller(context)
    try:
        image = client.create(dict(
            volume_image.upload_properties(volume.image_metadata),
            **image_values))
    except Exception:
        with excutils.save_and_reraise_exception():
            _quietly('give volume %s back' % volume.id,
                     image_state.end_upload, context, volume.id)
    try:
        if not image_state.record_upload(context, volume.id, image['id']):
            raise exception.InvalidVolume(
                reason='volume %s stopped uploading before its image %s was '
                       'recorded (its status was reset)' % (volume.id,
                                                            image['id']))
        rpcapi.get().copy_volume_to_image(context, volume, {
            key: image.get(key)
            for key in ('id', 'name', 'disk_format', 'container_format')})
    except Exception:
        with excutils.save_and_reraise_exception():
            _quietly('delete image %s' % image['id'], client.delete,
                     image['id'], image.get('protected'))
            _quietly('give volume %s back' % volume.id,
                     image_state.end_upload, context, volume.id,
                     image['id'])
    return volume, image


def reimage(context, volume, image_id, reimage_reserved=False):
    """os-reimage: check the image with the caller's token, claim
    ``downloading`` (at most one attachment), ask the backend to write
    it. Nothing changes unless all of this holds."""
    rpcapi.get().check_image_actions('re-imaging a volume')
    if not volume.host:
        # No backend took it (its create failed at once): there is no
        # storage to write the image on, nor a manager to ask.
        raise exception.InvalidVolume(
            reason='volume %s was never made on a backend; it cannot be '
                   're-imaged' % volume.id)
    image = images.for_caller(context).get(image_id)
    volume_image.check_fits(image, volume.size)
    claimed = image_state.claim_reimage(context, volume, image_id,
                                        reimage_reserved)
    try:
        rpcapi.get().reimage(context, claimed, image_id, image=image)
    except Exception:
        with excutils.save_and_reraise_exception():
            _quietly('give volume %s back' % volume.id,
                     image_state.undo_reimage, context, volume.id, image_id)
