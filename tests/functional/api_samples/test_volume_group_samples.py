"""The volume API's samples of generic volume groups
(doc/api_samples/volume/), replayed: a group type and its specs made by
an administrator; a group of it made, with a volume, shown, listed,
renamed; a group snapshot of it, listed, shown, reset and deleted; a
group made of the snapshot and one of the group; their status reset; the
groups deleted with their volumes and the type taken apart."""

import uuid

from oslo_config import cfg

from tests.functional.api_samples import samples
from tests.functional import helpers
from tests.functional.volume import group_helpers as gh

CONF = cfg.CONF
VERSION = '3.71'


def test_the_group_types_story(aio):
    admin = aio.http('operator', 'ops-' + uuid.uuid4().hex[:8],
                     roles=['admin'], version=VERSION)
    name = 'gold-' + uuid.uuid4().hex[:6]
    story = samples.Samples('volume', admin, group_type_name=name)
    made = story.exchange('group-type-create', 'POST', '/group_types', {
        'group_type': {'name': name, 'description': 'snapshotted together',
                       'is_public': True,
                       'group_specs': {'replication': '<is> False'}}},
        version=VERSION)['group_type']
    story.subs['group_type_id'] = made['id']
    path = '/group_types/%s' % made['id']
    story.exchange('group-type-show', 'GET', path, version=VERSION)
    # The newest group type first: this one, whatever else the cloud
    # holds.
    story.exchange('group-types-list', 'GET',
                   '/group_types?sort_dir=desc&limit=1', version=VERSION)
    story.exchange('group-type-update', 'PUT', path, {
        'group_type': {'description': 'volumes snapshotted together'}},
        version=VERSION)
    # The API runs in this process: its option is this process's.
    CONF.set_override('default_group_type', name)
    try:
        story.exchange('group-type-default-show', 'GET',
                       '/group_types/default', version=VERSION)
    finally:
        CONF.clear_override('default_group_type')
    specs = path + '/group_specs'
    story.exchange('group-type-specs-create', 'POST', specs, {
        'group_specs': {'tier': 'gold', 'owner': 'storage-team'}},
        version=VERSION)
    story.exchange('group-type-specs-list', 'GET', specs, version=VERSION)
    story.exchange('group-type-spec-show', 'GET', specs + '/tier',
                   version=VERSION)
    story.exchange('group-type-spec-update', 'PUT', specs + '/tier',
                   {'tier': 'platinum'}, version=VERSION)
    story.exchange('group-type-spec-delete', 'DELETE', specs + '/owner',
                   version=VERSION)
    story.exchange('group-type-delete', 'DELETE', path, version=VERSION)


def test_the_groups_story(aio, wait):
    http = aio.http(version=VERSION)
    admin = aio.http('admin', http.project, roles=['admin'],
                     version=VERSION)
    gtype = gh.group_type(admin)
    vtype = gh.volume_type(admin)
    story = samples.Samples('volume', http, group_type_id=gtype['id'],
                            volume_type_id=vtype['id'])
    made = story.exchange('group-create', 'POST', '/groups', {'group': {
        'name': 'db-disks', 'description': 'data and log',
        'group_type': gtype['id'], 'volume_types': [vtype['id']]}},
        version=VERSION)['group']
    group = gh.wait_status(http, '/groups/%s' % made['id'], 'group',
                           'available', wait)
    volume = gh.volume(http, group['id'], vtype['id'], wait)
    loose = helpers.create_volume(http, wait_for=wait,
                                  volume_type=vtype['id'])
    story.subs.update(group_id=group['id'], volume_id=volume['id'],
                      loose_volume_id=loose['id'])
    path = '/groups/%s' % group['id']
    story.exchange('group-show', 'GET', path + '?list_volume=true',
                   version=VERSION)
    story.exchange('groups-list', 'GET', '/groups', version=VERSION)
    story.exchange('groups-list-detail', 'GET', '/groups/detail',
                   version=VERSION)
    story.exchange('group-update', 'PUT', path, {'group': {
        'name': 'db-disks-2', 'add_volumes': loose['id']}},
        version=VERSION)
    gh.wait_status(http, path, 'group', 'available', wait)

    snapshot = story.exchange(
        'group-snapshot-create', 'POST', '/group_snapshots',
        {'group_snapshot': {'group_id': group['id'], 'name': 'before-upgrade',
                            'description': 'both disks'}},
        version=VERSION)['group_snapshot']
    snapshot_path = '/group_snapshots/%s' % snapshot['id']
    gh.wait_status(http, snapshot_path, 'group_snapshot', 'available', wait)
    story.subs['group_snapshot_id'] = snapshot['id']
    story.exchange('group-snapshot-show', 'GET', snapshot_path,
                   version=VERSION)
    story.exchange('group-snapshots-list', 'GET', '/group_snapshots',
                   version=VERSION)
    story.exchange('group-snapshots-list-detail', 'GET',
                   '/group_snapshots/detail', version=VERSION)

    copy = story.exchange('group-create-from-snapshot', 'POST',
                          '/groups/action', {'create-from-src': {
                              'name': 'restored',
                              'group_snapshot_id': snapshot['id']}},
                          version=VERSION)['group']
    gh.wait_status(http, '/groups/%s' % copy['id'], 'group', 'available',
                   wait)
    clone = story.exchange('group-create-from-group', 'POST',
                           '/groups/action', {'create-from-src': {
                               'name': 'cloned',
                               'source_group_id': group['id']}},
                           version=VERSION)['group']
    gh.wait_status(http, '/groups/%s' % clone['id'], 'group', 'available',
                   wait)

    managed = samples.Samples('volume', admin, group_id=group['id'],
                              group_snapshot_id=snapshot['id'])
    managed.exchange('group-snapshot-reset-status', 'POST',
                     snapshot_path + '/action',
                     {'reset_status': {'status': 'available'}},
                     version=VERSION)
    managed.exchange('group-reset-status', 'POST', path + '/action',
                     {'reset_status': {'status': 'available'}},
                     version=VERSION)

    story.exchange('group-snapshot-delete', 'DELETE', snapshot_path,
                   version=VERSION)
    gh.wait_gone(http, snapshot_path, wait)
    story.exchange('group-delete', 'POST', path + '/action',
                   {'delete': {'delete-volumes': True}}, version=VERSION)
    for other in (copy, clone):
        assert gh.delete_group(http, other['id'],
                               delete_volumes=True).status_code == 202
    for gone in (group, copy, clone):
        gh.wait_gone(http, '/groups/%s' % gone['id'], wait)
    assert admin.delete('/group_types/%s' % gtype['id']).status_code == 202
