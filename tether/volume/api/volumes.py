"""Business rules of the volume service; runs in the API process.

Every state change claims the volume with one conditional UPDATE before any
work is cast to a manager; quota is reserved before and settled on every
path.
"""

from oslo_config import cfg
from oslo_db import exception as db_exc
from oslo_log import log as logging
from oslo_utils import excutils
from oslo_utils import uuidutils

from tether.db.volume import attachment as db_attachments
from tether.db.volume import quota as db_quotas
from tether.db import session
from tether.db.volume import volume_type as db_types
from tether.db.volume import volume as db_volumes
from tether import exception
from tether.objects import fields
from tether.objects.volume import volume as volume_obj
from tether.volume.ops import volume_actions as extend_flows
from tether.volume.ops import volumes as flows
from tether.volume import quota
from tether.volume import rpcapi
from tether.volume import scheduler

CONF = cfg.CONF
LOG = logging.getLogger(__name__)
S = fields.VolumeStatus
SORT_KEYS = db_volumes.SORT_KEYS


def scope(context):
    """The project a caller is confined to (None: an admin sees all)."""
    return None if context.is_admin else context.project_id


def is_multiattach_type(db_type):
    specs = {s.key: s.value for s in db_type.extra_specs}
    return str(specs.get('multiattach', '')).lower() in ('<is> true',)


def get(context, volume_id):
    return volume_obj.Volume.from_db(
        db_volumes.get(context, volume_id, scope(context)))


def get_all(context, all_tenants=False, project_id=None, filters=None,
            marker=None, limit=None, sort_keys=None, sort_dirs=None,
            offset=None):
    rows = db_volumes.get_all(
        context, _list_scope(context, all_tenants, project_id),
        filters=filters, marker=marker, limit=limit,
        sort_keys=sort_keys or ('created_at', 'id'),
        sort_dirs=sort_dirs or ('desc', 'desc'), offset=offset)
    return [volume_obj.Volume.from_db(r) for r in rows]


def _list_scope(context, all_tenants, project_id=None):
    if context.is_admin and all_tenants:
        return project_id
    return context.project_id


def count(context, all_tenants=False, project_id=None, filters=None):
    return db_volumes.count(context, _list_scope(context, all_tenants,
                                                 project_id), filters)


def summary(context, all_tenants=False):
    """(count, total GiB, {metadata key: [values]}) of visible volumes."""
    return db_volumes.summary(context, _list_scope(context, all_tenants))


@db_quotas.retry_on_duplicate
@session.writer
def _insert_counted(context, values, metadata, limits, type_name):
    """Count the volume against the quota and insert it: one transaction."""
    db_quotas.consume_in_transaction(
        context, values['project_id'],
        {'volumes': 1, 'gigabytes': values['size']}, limits)
    try:
        db_volume = db_volumes.create(context, values, metadata)
    except db_exc.DBReferenceError:
        # The type was deleted since it was read (the foreign key says so).
        raise exception.VolumeTypeNotFound(
            volume_type_id=values['volume_type_id'])
    return volume_obj.Volume.from_db(db_volume, volume_type_name=type_name)


def create(context, size, name=None, description=None, metadata=None,
           volume_type=None, availability_zone=None):
    _check_metadata_keys(metadata or {})
    az = availability_zone or CONF.storage_availability_zone
    with session.reading(context):
        db_type = db_types.get_by_name_or_id(
            context, volume_type or CONF.default_volume_type)
        if not (db_type.is_public or context.is_admin):
            # Private types have no access lists yet: admins only.
            raise exception.VolumeTypeNotFound(volume_type_id=volume_type)
        limits = quota.check_per_volume_size(context, context.project_id,
                                             size)
        host = scheduler.choose_backend(context, size, az)
    values = {
        'id': uuidutils.generate_uuid(),
        'project_id': context.project_id, 'user_id': context.user_id,
        'name': name, 'description': description, 'size': size,
        'availability_zone': az, 'host': host,
        'status': S.CREATING if host else S.ERROR,
        'attach_status': fields.VolumeAttachStatus.DETACHED,
        'volume_type_id': db_type.id, 'bootable': False,
        'multiattach': is_multiattach_type(db_type),
    }
    volume = _insert_counted(context, values, metadata or {}, limits,
                             db_type.name)
    if host is None:
        LOG.warning('No volume backend has room for %sG in zone %s; volume '
                    '%s is in error.', size, az, volume.id)
        return volume
    try:
        rpcapi.get().create_volume(context, volume)
    except Exception:
        LOG.exception('Could not cast create of volume %s', volume.id)
        db_volumes.conditional_update(context, volume.id,
                                      {'status': S.ERROR}, [S.CREATING])
        volume.status = S.ERROR
    return volume


def update(context, volume_id, values):
    return volume_obj.Volume.from_db(
        db_volumes.update(context, volume_id, values, scope(context)))


def delete(context, volume_id):
    db_volume = db_attachments.transition_without_attachments(
        context, volume_id, {'status': S.DELETING},
        fields.DELETABLE_STATUSES, scope(context))
    volume = volume_obj.Volume.from_db(db_volume)
    if not volume.host:
        # Never reached a backend: nothing on disk to remove.
        flows.finish_delete(context, volume)
        return
    rpcapi.get().delete_volume(context, volume)


def extend(context, volume, new_size, allow_attached=False):
    """Claim ``extending``, reserve the quota, ask the backend.

    ``volume`` is as the caller read it: the claim holds only if its
    status and size are still those. ``allow_attached`` (3.42) lets an
    ``in-use`` volume be extended: its server's hypervisor grows the disk
    (see tether.volume.ops.volume_actions).
    """
    if new_size <= volume.size:
        raise exception.InvalidInput(
            reason='new size %(new)sG must be greater than the current size '
                   '%(size)sG' % {'new': new_size, 'size': volume.size})
    limits = quota.check_per_volume_size(context, volume.project_id,
                                         new_size)
    statuses = [S.AVAILABLE, S.IN_USE] if allow_attached else [S.AVAILABLE]
    reservations = _claim_extend(context, volume, new_size, limits,
                                 statuses)
    volume.status = S.EXTENDING
    try:
        rpcapi.get().extend_volume(context, volume, new_size, reservations)
    except Exception:
        with excutils.save_and_reraise_exception():
            _undo_extend(context, volume.id, reservations)


@db_quotas.retry_on_duplicate
@session.writer
def _claim_extend(context, volume, new_size, limits, statuses):
    """Claim ``extending`` (from one of ``statuses``) and reserve the
    quota, at once.

    One transaction: no writer (an os-reset_status) can come between the
    claim and the reservation and leave the reservation behind; over quota,
    the claim is undone with it. The size was read before: the claim holds
    only if it is unchanged, or the reservation would be for the wrong
    delta.
    """
    # From the status read before (if it changed since, the claim fails
    # naming the new one): it is where a rolled-back extend returns.
    expected = [volume.status] if volume.status in statuses else statuses
    db_volumes.transition(
        context, volume.id,
        {'status': S.EXTENDING, 'previous_status': volume.status},
        expected, scope(context), expected_size=volume.size)
    return quota.reserve(context, volume.project_id,
                         {'gigabytes': new_size - volume.size},
                         limits=limits, resource_id=volume.id)


def _undo_extend(context, volume_id, reservations):
    extend_flows.abandon(context, volume_id, reservations)


def complete_extend(context, volume_id, error):
    """os-extend_volume_completion: the compute host grew the volume (or
    could not); see tether.volume.ops.volume_actions."""
    return extend_flows.complete(context, volume_id, error)


@session.writer
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
    if values:
        # Conditional on the status read above, so a concurrent transition
        # between the read and this write makes the reset fail loudly.
        db_volumes.transition(context, volume_id, values, [current.status])


def get_metadata(context, volume_id):
    return get(context, volume_id).metadata


def _check_metadata_keys(keys):
    reserved = sorted(set(keys) & set(volume_obj.RESERVED_METADATA_KEYS))
    if reserved:
        raise exception.InvalidInput(
            reason='metadata key %s is reserved: the volume service sets '
                   'it (an extend in progress)' % ', '.join(reserved))


def update_metadata(context, volume_id, metadata, delete_others=False):
    _check_metadata_keys(metadata)
    return db_volumes.metadata_update(context, volume_id, metadata,
                                      delete_others, scope(context))


def delete_metadata(context, volume_id, key):
    _check_metadata_keys([key])
    db_volumes.metadata_delete(context, volume_id, key, scope(context))
