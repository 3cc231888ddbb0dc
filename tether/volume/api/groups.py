"""Generic volume groups (``/groups``) in the API process: reads,
create, update (name, description, volumes in and out), delete and the
administrators' reset_status.

A group is a DB-level grouping on one backend (Cinder's generic groups
on a driver without group support): its create counts ``groups`` against
the quota in the transaction that inserts it; a volume joins or leaves
it with one conditional UPDATE that holds every rule, after the group's
row is held ``available``; a delete holds the group ``deleting`` and
reads, after that, what would forbid it (group snapshots, volumes,
attached volumes, snapshots of them), all in one transaction. Its
volumes then go as any volume does, and the last one takes the group
with it (tether.volume.group_state). Creates from a source:
group_sources.py.
"""

from oslo_config import cfg
from oslo_utils import uuidutils

from tether.db import session
from tether.db.volume import attachment as db_attachments
from tether.db.volume import group as db_groups
from tether.db.volume import group_snapshot as db_group_snapshots
from tether.db.volume import quota as db_quotas
from tether.db.volume import snapshot as db_snapshots
from tether.db.volume import volume as db_volumes
from tether.objects import fields
from tether.volume.api import group_types
from tether.volume.api import services
from tether.volume.api import types as volume_types
from tether.volume.api import volume_sources
from tether.volume import exception
from tether.volume import group_exception
from tether.volume import group_state
from tether.volume import quota
from tether.volume import rpcapi
from tether.volume import scheduler
from tether.volume import volume_state

CONF = cfg.CONF
G = fields.GroupStatus
VS = fields.VolumeStatus
SORT_KEYS = db_groups.SORT_KEYS
# Cinder's statuses of a volume that may join a group, and leave it.
JOINABLE = (VS.AVAILABLE, VS.IN_USE)
REMOVABLE = (VS.AVAILABLE, VS.IN_USE, VS.ERROR, VS.ERROR_DELETING)


def get(context, group_id):
    return db_groups.get(context, group_id, context.project_scope)


def get_all(context, all_tenants=False, project_id=None, filters=None,
            marker=None, limit=None, sort_keys=None, sort_dirs=None,
            offset=None):
    return db_groups.get_all(
        context, context.list_scope(all_tenants, project_id),
        filters=filters, marker=marker, limit=limit,
        sort_keys=sort_keys or ('created_at', 'id'),
        sort_dirs=sort_dirs or ('desc', 'desc'), offset=offset)


def count(context, all_tenants=False, project_id=None, filters=None):
    return db_groups.count(
        context, context.list_scope(all_tenants, project_id), filters)


def volume_ids(context, group_ids):
    return db_groups.volume_ids(context, group_ids)


def check_zone(context, availability_zone):
    """The zone a group is made in: the one asked for, if a volume
    service knows it, else the default one."""
    if availability_zone is None:
        return CONF.storage_availability_zone
    if availability_zone not in {zone for zone, _up in
                                 services.availability_zones(context)}:
        raise exception.InvalidAvailabilityZone(az=availability_zone)
    return availability_zone


@db_quotas.retry_on_duplicate
@session.VOLUME.writer
def insert_counted(context, values, volume_type_ids, limits):
    """Count the group against ``groups`` and insert it: one
    transaction."""
    db_quotas.consume_in_transaction(context, values['project_id'],
                                     {'groups': 1}, limits)
    return db_groups.create_in_transaction(context, values, volume_type_ids)


def new_values(context, name, description, group_type_id, zone, host,
               status, **extra):
    return dict({
        'id': uuidutils.generate_uuid(), 'project_id': context.project_id,
        'user_id': context.user_id, 'name': name,
        'description': description, 'group_type_id': group_type_id,
        'availability_zone': zone, 'host': host, 'status': status}, **extra)


def create(context, name, group_type, volume_type_refs, description=None,
           availability_zone=None):
    """A group of ``group_type`` (a name or an id) for volumes of the
    ``volume_type_refs`` types, on the backend of its zone with the most
    room (``error`` if none is up: no volume can be made in it)."""
    gtype = group_types.find(context, group_type)
    vtypes = []
    for ref in volume_type_refs:
        vtype = volume_types.get(context, ref)
        if vtype.id not in [t.id for t in vtypes]:
            vtypes.append(vtype)
    zone = check_zone(context, availability_zone)
    limits = quota.get_limits(context, context.project_id)
    host = scheduler.choose_backend(context, 0, zone)
    values = new_values(context, name, description, gtype.id, zone, host,
                        G.AVAILABLE if host else G.ERROR)
    return insert_counted(context, values, [t.id for t in vtypes], limits)


# Update --------------------------------------------------------------------

def _ids(text):
    return [part for part in (text or '').strip(',').split(',') if part]


def _why_not_joined(context, volume_id, group):
    """The reason (Cinder's words) a volume did not join the group."""
    def invalid(why):
        return group_exception.InvalidGroupVolume(
            reason='Cannot add volume %s to group %s because %s.'
            % (volume_id, group.id, why))
    try:
        volume = db_volumes.get(context, volume_id, context.project_scope)
    except exception.VolumeNotFound:
        return invalid('volume cannot be found')
    if volume.group_id:
        return invalid('it is already in group %s' % volume.group_id)
    if volume.project_id != group.project_id:
        return invalid('they belong to different projects')
    if volume.volume_type_id not in group.volume_type_ids:
        return invalid('volume type %s is not supported by the group'
                       % volume.volume_type_id)
    if volume.status not in JOINABLE:
        return invalid('volume is in an invalid state: %s. Valid states '
                       'are: %s' % (volume.status, ', '.join(JOINABLE)))
    return invalid('it is not on the group\'s backend %s (it is on %s)'
                   % (group.backend_host, volume.backend_host))


def _why_not_removed(context, volume_id, group):
    try:
        volume = db_volumes.get(context, volume_id, context.project_scope)
    except exception.VolumeNotFound:
        volume = None
    if volume is None or volume.group_id != group.id:
        why = 'it is not in the group'
    else:
        why = ('volume is in an invalid state: %s. Valid states are: %s'
               % (volume.status, ', '.join(REMOVABLE)))
    return group_exception.InvalidGroupVolume(
        reason='Cannot remove volume %s from group %s because %s.'
        % (volume_id, group.id, why))


@session.VOLUME.writer
def _update(context, group_id, values, add, remove):
    """The change, in one transaction: a change of members holds the
    group ``available`` first; each volume joins or leaves with one
    conditional UPDATE (the first refused undoes them all)."""
    if add or remove:
        group = db_groups.transition_in_transaction(
            context, group_id, values, [G.AVAILABLE], context.project_scope)
    else:
        group = db_groups.update(context, group_id, values,
                                 context.project_scope)
    members = {v.id for v in db_groups.volumes_in_transaction(context,
                                                              group_id)}
    for volume_id in add:
        if volume_id in members:
            continue
        if not db_groups.join_in_transaction(context, volume_id, group,
                                             JOINABLE):
            raise _why_not_joined(context, volume_id, group)
    for volume_id in remove:
        if not db_groups.leave_in_transaction(context, volume_id, group.id,
                                              REMOVABLE):
            raise _why_not_removed(context, volume_id, group)
    return group


def update(context, group_id, name=None, description=None, add_volumes=None,
           remove_volumes=None):
    """Rename, describe, add volumes to and remove volumes from a group
    (``add_volumes``, ``remove_volumes``: ids separated by commas)."""
    group = get(context, group_id)
    add, remove = _ids(add_volumes), _ids(remove_volumes)
    both = sorted(set(add) & set(remove))
    if both:
        raise group_exception.InvalidGroupVolume(
            reason='UUIDs %s are in both add and remove volume list.'
            % ', '.join(both))
    values = {}
    if name is not None and name != group.name:
        values['name'] = name
    if description is not None and description != group.description:
        values['description'] = description
    if not (values or add or remove):
        raise group_exception.InvalidGroup(
            reason='Cannot update group %s because no valid name, '
                   'description, add_volumes, or remove_volumes were '
                   'provided.' % group_id)
    return _update(context, group_id, values, add, remove)


# Delete --------------------------------------------------------------------

def _claim_volume(context, group, volume):
    """A volume of a group being deleted with its volumes: ``deleting``,
    unless it is attached, has snapshots or is being copied."""
    try:
        db_attachments.transition_without_attachments(
            context, volume.id, {'status': VS.DELETING},
            fields.DELETABLE_STATUSES)
    except exception.VolumeHasAttachments:
        raise group_exception.InvalidGroup(
            reason='Volume %s in group %s is attached. Need to detach '
                   'first.' % (volume.id, group.id))
    except exception.InvalidVolumeStatus as exc:
        raise group_exception.InvalidGroup(reason=str(exc))
    if db_snapshots.of_volume_in_transaction(context, volume.id):
        raise group_exception.InvalidGroup(
            reason='Volume %s in group %s still has dependent snapshots.'
            % (volume.id, group.id))
    volume_sources.check_no_volume_made_of_volume(context, volume.id)


@session.VOLUME.writer
def _claim_delete(context, group_id, delete_volumes):
    """``deleting``, in one transaction, read after the group's row is
    held: no group snapshot, no group being made of it, and without
    ``delete_volumes`` no volume; with it, each volume ``deleting``."""
    group = db_groups.transition_in_transaction(
        context, group_id, {'status': G.DELETING}, G.DELETABLE,
        context.project_scope)
    found = db_group_snapshots.of_group_in_transaction(context, group_id)
    if found:
        raise group_exception.InvalidGroup(
            reason='Group %s has existing snapshots (group snapshot %s); '
                   'delete them first.' % (group_id, found))
    copy = db_groups.made_of_in_transaction(
        context, [G.CREATING], source_group_id=group_id)
    if copy:
        raise group_exception.InvalidGroup(
            reason='group %s is being made of group %s' % (copy, group_id))
    volumes = db_groups.volumes_in_transaction(context, group_id)
    if volumes and not delete_volumes:
        raise group_exception.InvalidGroup(
            reason='Group %s still contains volumes. The delete-volumes '
                   'flag is required to delete it.' % group_id)
    for volume in volumes:
        _claim_volume(context, group, volume)
    if not volumes:
        group_state.destroy_in_transaction(context, group)
    return [db_volumes.get(context, v.id) for v in volumes]


def delete(context, group_id, delete_volumes=False):
    """Delete a group (``available`` or ``error``), with its volumes if
    ``delete_volumes``: they go as any volume does, the group with the
    last of them."""
    get(context, group_id)
    volumes = _claim_delete(context, group_id, delete_volumes)
    for volume in volumes:
        if not volume.host:
            volume_state.finish_delete(context, volume)
        else:
            rpcapi.get().delete_volume(context, volume)


def reset_status(context, group_id, status):
    """An administrator's reset_status: any status."""
    get(context, group_id)
    db_groups.update(context, group_id, {'status': status})
