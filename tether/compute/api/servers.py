"""Servers (``/servers``) in the API process: reads, create, update,
delete.

A server boots from an image (a local root disk) or from a volume
(given, or made of an image by its compute host): see
tether.compute.api.block_device_mapping. The volume and image services
are called with the caller's token (their policies and tenancy decide
what the caller may use), the compute hosts over RPC.
"""

from oslo_config import cfg
from oslo_log import log as logging
from oslo_utils import excutils
from oslo_utils import uuidutils

from tether.compute.api import block_device_mapping
from tether.compute.api import server_groups
from tether.compute.api import server_metadata
from tether.compute import configdrive
from tether.compute import exception
from tether.compute import instance_state
from tether.compute import quota
from tether.compute import rpcapi as compute_rpcapi
from tether.compute import scheduler
from tether.compute import version as compute_version
from tether.compute import volume_client
from tether.db.compute import block_device_mapping as db_bdms
from tether.db.compute import flavor as db_flavors
from tether.db.compute import instance as db_instances
from tether.db.compute import instance_action as db_actions
from tether.db.compute import key_pair as db_key_pairs
from tether.db.compute import service as db_services
from tether.objects.compute import instance as instance_obj
from tether.objects import fields

CONF = cfg.CONF
LOG = logging.getLogger(__name__)

VmState = fields.VmState
TaskState = fields.TaskState
Action = fields.InstanceAction


def get(context, instance_uuid):
    return db_instances.get(context, instance_uuid, context.project_scope)


def get_any(context, instance_uuid):
    """An instance of any project (external events, admins)."""
    return db_instances.get(context, instance_uuid)


def get_all(context, project_id=None, filters=None, marker=None,
            limit=None, changes_since=None, deleted=False):
    return db_instances.get_all(context, project_id, filters=filters,
                                marker=marker, limit=limit,
                                changes_since=changes_since,
                                deleted=deleted)


def host_statuses(context):
    """{host: UP, DOWN or MAINTENANCE} of the compute services (2.16)."""
    out = {}
    for service in db_services.get_all(
            context, binary=fields.ServiceBinary.COMPUTE):
        if not service.is_up(CONF.service_down_time):
            out[service.host] = 'DOWN'
        elif service.disabled:
            out[service.host] = 'MAINTENANCE'
        else:
            out[service.host] = 'UP'
    return out


def block_devices_of(context, instances):
    """{instance uuid: [block device rows]} for the server views: the
    volumes, and the local root disk of a server from an image."""
    return db_bdms.get_all_by_instances(context,
                                        [i.uuid for i in instances])


def block_devices_of_instance(context, instance):
    return db_bdms.get_all_by_instance(context, instance.uuid)


def volumes_of_instance(context, instance):
    """The rows of the volumes of a server (its volume attachments)."""
    return db_bdms.get_by_instance(context, instance.uuid)


# Create ---------------------------------------------------------------------

def _flavor(context, flavor_ref):
    try:
        # A private flavor boots for admins and the projects with access.
        return db_flavors.get(
            context, str(flavor_ref),
            project_id=None if context.is_admin else context.project_id)
    except exception.FlavorNotFound as exc:
        raise exception.InvalidInput(reason=str(exc))


def _reserve_volume(client, volume_id, instance_uuid):
    """An attachment (no connector yet) of an available volume."""
    try:
        volume = client.get_volume(volume_id)
    except exception.VolumeNotFound:
        raise exception.InvalidBDM(
            reason='failed to get volume %s: it does not exist or '
                   'belongs to another project.' % volume_id)
    if volume['status'] != 'available':
        raise exception.InvalidBDM(
            reason='volume %s is %s; a server boots from an available '
                   'volume.' % (volume_id, volume['status']))
    try:
        return volume, client.create_attachment(volume_id, instance_uuid)
    except exception.VolumeAPIError as exc:
        raise exception.InvalidBDM(
            reason='volume %s cannot be attached: %s' % (volume_id, exc))


def _release(client, attachments):
    for attachment in attachments:
        try:
            client.delete_attachment(attachment['id'])
        except exception.TetherException:
            LOG.exception('Could not delete attachment %s', attachment['id'])


def _candidates(context, availability_zone, boot, config_drive=False):
    """The hosts that may take the server; ComputeHostsTooOld when a
    server from images or snapshots (or with a config drive) finds only
    hosts too old to build it (nothing is made then)."""
    if config_drive:
        compute_rpcapi.get().check_config_drive()
        needed = compute_version.CONFIG_DRIVE_SERVICE_VERSION
        what = 'a server with a config drive'
    elif boot.needs_snapshots:
        compute_rpcapi.get().check_snapshot_builds()
        needed = compute_version.SNAPSHOT_BUILD_SERVICE_VERSION
        what = 'a server with volumes made of snapshots or empty'
    elif boot.needs_images:
        compute_rpcapi.get().check_image_builds()
        needed = compute_version.IMAGE_BUILD_SERVICE_VERSION
        what = 'a server from an image'
    else:
        return scheduler.candidates(context, availability_zone)
    found = scheduler.candidates(context, availability_zone,
                                 min_service_version=needed)
    if not found:
        old = scheduler.versions_below(context, needed, availability_zone)
        if old:
            raise exception.ComputeHostsTooOld(
                zone=(' in zone %s' % availability_zone
                      if availability_zone else ''),
                what=what, needed=needed,
                found=', '.join('%s (%s)' % item
                                for item in sorted(old.items())))
    return found


def _local_root_row(image_id):
    """The block device mapping of a local root disk made of an image,
    as Nova records it."""
    return db_bdms.new_values(
        None, source_type=fields.BdmSourceType.IMAGE,
        destination_type=fields.BdmDestinationType.LOCAL,
        image_id=image_id, boot_index=0, delete_on_termination=True,
        status=fields.BdmStatus.ATTACHING)


def _volume_rows(client, boot, instance_uuid, attachments):
    """The rows of the volumes of ``boot``: each volume given is reserved
    now (its attachment appended to ``attachments``); a volume made of an
    image or a snapshot, or empty, is made by the compute host."""
    rows = []
    for device in boot.volumes:
        values = dict(
            boot_index=device.boot_index,
            delete_on_termination=device.delete_on_termination,
            tag=device.tag, status=fields.BdmStatus.ATTACHING,
            source_type=device.source_type,
            destination_type=fields.BdmDestinationType.VOLUME)
        if device.made_of_image:
            rows.append(db_bdms.new_values(
                None, image_id=device.uuid, volume_size=device.volume_size,
                **values))
            continue
        if device.source_type == fields.BdmSourceType.SNAPSHOT:
            rows.append(db_bdms.new_values(
                None, snapshot_id=device.uuid,
                volume_size=block_device_mapping.snapshot_size(client,
                                                               device),
                **values))
            continue
        if device.source_type == fields.BdmSourceType.BLANK:
            rows.append(db_bdms.new_values(
                None, volume_size=device.volume_size, **values))
            continue
        volume, attachment = _reserve_volume(client, device.uuid,
                                             instance_uuid)
        attachments.append(attachment)
        rows.append(db_bdms.new_values(
            device.uuid, attachment_id=attachment['id'],
            volume_size=volume['size'], **values))
    return rows


def create(context, name, flavor_ref, devices, image_ref=None,
           availability_zone=None, metadata=None, description=None,
           hostname=None, zero_disk_allowed=False, key_name=None,
           given=None, group_uuid=None, config_drive=False):
    """Check the images, reserve the volumes, claim a host, record the
    server, build it.

    ``image_ref`` is the image of a local root disk (None: the server
    boots from a volume); ``devices`` are the
    :class:`~tether.compute.api.block_device_mapping.Device` entries of
    ``block_device_mapping_v2``. ``zero_disk_allowed``: the policy lets
    the caller boot an image onto the root disk of a flavor of 0 GB.
    ``key_name``: a key pair of the caller's (KeypairNotFound if there is
    none), recorded with its public key. ``given``: columns the request
    sets as it gave them (``user_data``, ``access_ip_v4``,
    ``access_ip_v6``). ``group_uuid``: the server group it joins (the
    scheduler hint ``group``; ServerGroupNotFound for none of the
    caller's), whose policy the host is chosen by. ``config_drive``: the
    guest gets a config drive (a host that makes them is chosen).
    Anything refused is refused before anything is made.
    """
    server_metadata.check_quota(context, metadata)
    flavor = _flavor(context, flavor_ref)
    quota.check_instances(context, context.project_id, context.user_id,
                          quota.instance_deltas(flavor.vcpus,
                                                flavor.memory_mb))
    key_pair = (db_key_pairs.get(context, context.user_id, key_name)
                if key_name is not None else None)
    group = (server_groups.rule_for(context, group_uuid)
             if group_uuid is not None else None)
    image_ref, devices, known = block_device_mapping.image_defined(
        context, image_ref, devices)
    boot = block_device_mapping.plan(image_ref, devices)
    candidates = _candidates(context, availability_zone, boot,
                             config_drive)
    if boot.needs_images:
        block_device_mapping.check_images(context, boot, flavor,
                                          zero_disk_allowed, known)
    instance_uuid = uuidutils.generate_uuid()
    client = volume_client.for_user(context)
    attachments = []
    try:
        rows = _volume_rows(client, boot, instance_uuid, attachments)
        if boot.image_id:
            rows.insert(0, _local_root_row(boot.image_id))
        values = {
            'uuid': instance_uuid, 'project_id': context.project_id,
            'user_id': context.user_id, 'display_name': name,
            'display_description': description,
            'hostname': hostname or _hostname(name),
            'availability_zone': (availability_zone or
                                  CONF.default_availability_zone),
            'pinned_availability_zone': availability_zone,
            'flavor': flavor.snapshot(),
            'image_ref': boot.image_id or '',
            'memory_mb': flavor.memory_mb, 'vcpus': flavor.vcpus,
            'vm_state': VmState.BUILDING,
            'task_state': TaskState.SCHEDULING, 'power_state': 0,
            'locked': False, 'metadata': metadata or {},
            'key_name': key_pair.name if key_pair else None,
            'key_data': key_pair.public_key if key_pair else None,
            'config_drive': configdrive.TRUE if config_drive else '',
            'deleted': False,
        }
        # user_data and the access addresses, as the request gave them.
        values.update(given or {})
        instance = instance_state.create_counted(
            context, values, rows, candidates,
            db_actions.action_values(context, instance_uuid, Action.CREATE),
            group=group)
    except Exception:
        with excutils.save_and_reraise_exception():
            _release(client, attachments)
    if instance.host is None:
        _release(client, attachments)
        for bdm in db_bdms.get_all_by_instance(context, instance_uuid):
            db_bdms.destroy(context, bdm.id)
        exc = exception.NoValidHost(reason=_no_host(
            availability_zone, flavor, group))
        return db_instances.update(
            context, instance_uuid,
            {'vm_state': VmState.ERROR, 'task_state': None,
             'fault': instance_obj.fault_of(exc)})
    compute_rpcapi.get().build_and_run_instance(context, instance)
    return instance


def _no_host(availability_zone, flavor, group):
    """Why a server found no host (its fault's NoValidHost)."""
    why = group.why_none() if group is not None else None
    if why is not None:
        return 'There are not enough hosts available: %s.' % why
    return ('There are not enough hosts available: no compute service '
            'that is up and enabled%s has %d MiB and %d vCPUs free.' % (
                ' in zone %s' % availability_zone
                if availability_zone else '',
                flavor.memory_mb, flavor.vcpus))


def _hostname(name):
    """A hostname made of a display name, as Nova sanitizes it."""
    out = ''.join(c if c.isalnum() or c in '-.' else '-'
                  for c in name.lower().strip())
    out = out.strip('-.')[:63]
    return out or 'server'


def update(context, instance, values):
    return db_instances.update(context, instance.uuid, values)


# Delete ------------------------------------------------------------

def delete(context, instance):
    """Delete a server; a second delete of it is accepted and does
    nothing (the first one finishes the job)."""
    if instance.task_state == TaskState.DELETING:
        LOG.info('Instance %s is already being deleted', instance.uuid)
        return
    check_unlocked(context, instance)
    others = tuple(s for s in TaskState.ALL if s != TaskState.DELETING)
    try:
        instance = db_instances.update(
            context, instance.uuid, {'task_state': TaskState.DELETING},
            expected_task_state=others + (None,), action='delete',
            unlocked=not context.is_admin)
    except exception.InstanceInvalidState:
        # Only "deleting" fails the condition: another delete won.
        LOG.info('Instance %s is already being deleted', instance.uuid)
        return
    db_actions.action_start(context, instance.uuid, Action.DELETE)
    if instance.host is None:
        # Never scheduled: nothing runs anywhere.
        _release(volume_client.as_service(context),
                 [{'id': bdm.attachment_id}
                  for bdm in db_bdms.get_by_instance(context, instance.uuid)
                  if bdm.attachment_id])
        instance_state.soft_delete_counted(context, instance.uuid)
        return
    compute_rpcapi.get().terminate_instance(context, instance)


def check_host(instance, action):
    """A server that never got a host has nothing to act on (Nova's
    check_instance_host)."""
    if instance.host is None:
        raise exception.InstanceNotReady(
            instance_id=instance.uuid,
            reason="it has no compute host, so it cannot '%s'" % action)


def check_unlocked(context, instance):
    """A locked server refuses the actions of users who are not admins
    (Nova's check_instance_lock): InstanceIsLocked, 409. A check before
    the work starts; the claim of a task names it again
    (``db_instances.update(..., unlocked=True)``)."""
    if instance.locked and not context.is_admin:
        raise exception.InstanceIsLocked(instance_id=instance.uuid)


def check_host_version(context, instance, needed, what):
    """The server's host runs a tether-compute of service version
    ``needed`` or later, which knows ``what`` (ComputeHostTooOld, 409,
    names both versions)."""
    found = scheduler.service_version(context, instance.host)
    if found < needed:
        raise exception.ComputeHostTooOld(
            host=instance.host, what=what, version=found, needed=needed)


def check_state(instance, action, vm_states):
    """The server has a host, is in one of ``vm_states`` and has no task
    under way (InstanceInvalidState, 409, names what is not)."""
    check_host(instance, action)
    if instance.vm_state not in vm_states:
        raise exception.InstanceInvalidState(
            action=action, instance_id=instance.uuid, attr='vm_state',
            state=instance.vm_state)
    if instance.task_state is not None:
        raise exception.InstanceInvalidState(
            action=action, instance_id=instance.uuid, attr='task_state',
            state=instance.task_state)
