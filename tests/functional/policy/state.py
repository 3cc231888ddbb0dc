"""What project A has, read straight from both databases (the aio runs in
the test's process), for the policy matrix's check that a refused call
changed nothing.

Every column of the rows of the world's shared resources is compared
(``updated_at`` aside: a write of what is there already is no change),
and more than the administrator's API shows of them: one read
transaction per database instead of some 25 admin requests. Of the
throwaway resources (they settle on their own time) only the IDs count:
no volume or server the matrix does not know of may appear in project
A, and no attachment of project A's volumes may appear, go or change
its status. Project A's image is in Glance, another process: one GET.
"""

import sqlalchemy as sa

from tether.db.compute.models import common as compute_common
from tether.db import session
from tether.db.volume.models import common as volume_common

# Columns that change with no call (heartbeats) or with a write of what
# is there already.
_VOLATILE = {'updated_at', 'report_count', 'heartbeat_at'}


def _rows(conn, table, where=None, columns=None):
    """The rows of ``table`` (those ``where`` selects), every column but
    the volatile ones (or ``columns``), as a sorted list."""
    names = columns or [c.name for c in table.c if c.name not in _VOLATILE]
    query = sa.select(*(table.c[name] for name in names))
    if where is not None:
        query = query.where(where)
    return sorted((tuple(row) for row in conn.execute(query)), key=repr)


def _volume_state(conn, world):
    t = volume_common.Base.metadata.tables
    ids, project = world.ids, world.projects['A']
    shared = [ids['volume_id'], ids['reserved_id'], ids['attached_id']]
    volumes, attachments = t['volumes'], t['volume_attachment']
    mine = sa.select(volumes.c.id).where(volumes.c.project_id == project)
    known = {v for _c, v in world.volumes} | set(world.group_volumes) | {
        i for _a, kind, i in world.created if kind == 'volume'}
    state = {
        'volumes': _rows(conn, volumes, volumes.c.id.in_(shared)),
        'unknown volumes': sorted(
            {i for (i,) in conn.execute(mine)} - known),
        'attachments': _rows(conn, attachments,
                             attachments.c.volume_id.in_(mine),
                             columns=['id', 'volume_id', 'attach_status']),
        'shared attachments': _rows(conn, attachments,
                                    attachments.c.volume_id.in_(shared)),
        'quota classes': _rows(conn, t['quota_classes']),
        'default types': _rows(
            conn, t['default_volume_types'],
            t['default_volume_types'].c.project_id == project),
        # The services' administrative state (not their heartbeats).
        'services': _rows(conn, t['services'], columns=[
            'host', 'binary', 'disabled', 'disabled_reason', 'frozen']),
    }
    by_id = (
        ('transfers', ids['transfer_id']), ('backups', ids['backup_id']),
        ('snapshots', ids['snapshot_id']),
        ('groups', [ids['group_id'], ids['empty_group_id']]),
        ('group_snapshots', ids['group_snapshot_id']),
        ('group_types', ids['group_type_id']),
        ('volume_types', [ids['type_id'], ids['private_type_id'],
                          ids['default_type_id']]),
        ('quality_of_service_specs', ids['qos_id']),
        ('messages', ids['message_id']))
    for name, value in by_id:
        values = value if isinstance(value, list) else [value]
        state[name] = _rows(conn, t[name], t[name].c.id.in_(values))
    # Tables of a parent's rows: (table, column naming the parent, IDs).
    children = (
        ('volume_metadata', 'volume_id', shared),
        ('volume_admin_metadata', 'volume_id', shared),
        ('volume_glance_metadata', 'volume_id', shared),
        ('snapshot_metadata', 'snapshot_id', [ids['snapshot_id']]),
        ('group_type_specs', 'group_type_id', [ids['group_type_id']]),
        ('group_volume_type_mapping', 'group_id', [ids['group_id']]),
        ('volume_type_extra_specs', 'volume_type_id', [ids['type_id']]),
        ('volume_type_projects', 'volume_type_id',
         [ids['private_type_id']]),
        ('quality_of_service_specs_items', 'qos_specs_id', [ids['qos_id']]),
        ('quotas', 'project_id', [project]))
    for name, column, values in children:
        state[name] = _rows(conn, t[name], t[name].c[column].in_(values))
    return state


def _compute_state(conn, world):
    t = compute_common.Base.metadata.tables
    ids, project = world.ids, world.projects['A']
    shared = [ids['server_id'], ids['metadata_server_id']]
    instances, flavors = t['instances'], t['flavors']
    servers = conn.execute(sa.select(instances.c.uuid).where(
        instances.c.project_id == project, ~instances.c.deleted))
    aggregate = int(ids['aggregate_id'])
    groups = t['server_groups']
    groups_of_a = sa.select(groups.c.id).where(groups.c.project_id == project)
    access = sa.select(flavors.c.id).where(
        flavors.c.flavorid == ids['access_flavor_id'])
    return {
        'servers': _rows(conn, instances, instances.c.uuid.in_(shared)),
        'unknown servers': sorted({i for (i,) in servers} -
                                  set(world.servers)),
        'share mappings': _rows(conn, t['share_mapping'],
                                t['share_mapping'].c.instance_uuid.in_(
                                    shared)),
        'block device mappings': _rows(
            conn, t['block_device_mapping'],
            t['block_device_mapping'].c.instance_uuid.in_(shared)),
        'key pairs': _rows(conn, t['key_pairs'], t['key_pairs'].c.user_id ==
                           ids['keypair_user_id']),
        'flavor ids': _rows(conn, flavors, columns=['flavorid']),
        'flavors': _rows(conn, flavors, flavors.c.flavorid.in_(
            [ids['specs_flavor_id'], ids['access_flavor_id']])),
        'flavor access': _rows(conn, t['flavor_projects'],
                               t['flavor_projects'].c.flavor_id.in_(access)),
        'services': _rows(conn, t['services'], columns=[
            'uuid', 'host', 'binary', 'disabled', 'disabled_reason',
            'forced_down']),
        'server groups': _rows(conn, groups, groups.c.project_id == project),
        'server group members': _rows(
            conn, t['server_group_members'],
            t['server_group_members'].c.group_id.in_(groups_of_a)),
        'aggregate ids': _rows(conn, t['aggregates'], columns=['id']),
        'aggregate': _rows(conn, t['aggregates'],
                           t['aggregates'].c.id == aggregate),
        'aggregate hosts': _rows(conn, t['aggregate_hosts'],
                                 t['aggregate_hosts'].c.aggregate_id ==
                                 aggregate),
        'aggregate metadata': _rows(conn, t['aggregate_metadata'],
                                    t['aggregate_metadata'].c.aggregate_id ==
                                    aggregate),
        'quotas': _rows(conn, t['quotas'], t['quotas'].c.project_id ==
                        project),
        'quota classes': _rows(conn, t['quota_classes']),
    }


def snapshot(world):
    """What project A has (and the shared records the matrix's rows
    act on), as the databases hold it."""
    state = {}
    for name, db, read in (('volume', session.VOLUME, _volume_state),
                           ('compute', session.COMPUTE, _compute_state)):
        with db.get_engine().connect() as conn:
            with conn.begin():
                for key, value in read(conn, world).items():
                    state['%s %s' % (name, key)] = value
    state['image'] = world.project_image_as_admin()
    return state
