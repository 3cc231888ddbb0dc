"""Generic volume groups and group snapshots refused: each refusal
names the problem with Cinder's code and changes nothing (no member
moved, no quota counted, no row left)."""

import uuid

import pytest

from tests.functional import helpers
from tests.functional.volume import group_helpers as gh
from tether.db.volume import group as db_groups


@pytest.fixture
def admin_http(aio):
    return aio.http('admin', 'admin', version=gh.VERSION)


@pytest.fixture
def http(aio):
    return aio.http(version=gh.VERSION)


@pytest.fixture
def types(admin_http):
    return gh.group_type(admin_http), gh.volume_type(admin_http)


def _members(group_id):
    return sorted(v.id for v in db_groups.volumes(helpers.admin_context(),
                                                  group_id))


def test_group_types_refused(admin_http, http, types):
    gtype, _vtype = types
    assert 'already exists' in gh.error(admin_http.post(
        '/group_types', json={'group_type': {'name': gtype['name']}}), 409)
    gh.error(http.post('/group_types', json={'group_type': {
        'name': gh.name('x')}}), 403)
    gh.error(admin_http.post('/group_types', json={'group_type': {
        'name': ' '}}), 400)
    gh.error(admin_http.post('/group_types', json={'group_type': {
        'name': 'x', 'group_specs': {'bad key': 'v'}}}), 400)
    path = '/group_types/%s' % gtype['id']
    gh.error(admin_http.put(path, json={'group_type': {}}), 400)
    gh.error(admin_http.put(path, json={'group_type': {'name': '  '}}), 400)
    gh.error(admin_http.get('/group_types/%s' % uuid.uuid4()), 404)
    gh.error(admin_http.get(path + '/group_specs/none'), 404)
    gh.error(admin_http.delete(path + '/group_specs/none'), 404)
    gh.error(admin_http.put(path + '/group_specs/a', json={
        'a': '1', 'b': '2'}), 400)


def test_group_creates_refused(aio, admin_http, http, types, wait):
    gtype, vtype = types
    before = gh.usage(http.project)
    private = gh.group_type(admin_http, is_public=False)
    for body, status in (
            ({'group_type': str(uuid.uuid4()),
              'volume_types': [vtype['id']]}, 404),
            ({'group_type': private['id'], 'volume_types': [vtype['id']]},
             404),
            ({'group_type': gtype['id'], 'volume_types': ['nope']}, 404),
            ({'group_type': gtype['id'], 'volume_types': []}, 400),
            ({'group_type': gtype['id']}, 400),
            ({'group_type': gtype['id'], 'volume_types': [vtype['id']],
              'availability_zone': 'nowhere'}, 400),
            ({'group_type': gtype['id'], 'volume_types': [vtype['id']],
              'bogus': 1}, 400)):
        gh.error(http.post('/groups', json={'group': body}), status)
    assert aio.http(http.user, http.project, version='3.12').post(
        '/groups', json={'group': {'group_type': gtype['id'],
                                   'volume_types': [vtype['id']]}}
    ).status_code == 404
    helpers.set_limits(http.project, groups=0)
    assert 'groups' in gh.error(http.post('/groups', json={'group': {
        'group_type': gtype['id'], 'volume_types': [vtype['id']]}}), 413)
    assert gh.usage(http.project) == before
    assert http.get('/groups').json()['groups'] == []
    # The types of a group stay while it has them.
    helpers.set_limits(http.project, groups=10)
    group = gh.group(http, gtype['id'], [vtype['id']])
    gh.error(admin_http.delete('/group_types/%s' % gtype['id']), 400)
    gh.error(admin_http.delete('/types/%s' % vtype['id']), 400)
    assert gh.delete_group(http, group['id']).status_code == 202


def test_volumes_of_a_group_refused(aio, admin_http, http, types, wait):
    gtype, vtype = types
    other_type = gh.volume_type(admin_http)
    group = gh.group(http, gtype['id'], [vtype['id']])
    before = gh.usage(http.project)
    assert 'supported by this group' in gh.error(http.post(
        '/volumes', json={'volume': {'size': 1, 'group_id': group['id'],
                                     'volume_type': other_type['id']}}),
        400)
    gh.error(http.post('/volumes', json={'volume': {
        'size': 1, 'group_id': str(uuid.uuid4()),
        'volume_type': vtype['id']}}), 404)
    gh.error(aio.http(version=gh.VERSION).post('/volumes', json={
        'volume': {'size': 1, 'group_id': group['id'],
                   'volume_type': vtype['id']}}), 404)
    admin_http.post('/groups/%s/action' % group['id'], json={
        'reset_status': {'status': 'error'}})
    assert 'is error' in gh.error(http.post('/volumes', json={'volume': {
        'size': 1, 'group_id': group['id'],
        'volume_type': vtype['id']}}), 400)
    assert gh.usage(http.project) == before
    assert _members(group['id']) == []
    assert gh.delete_group(http, group['id']).status_code == 202


def test_updates_refused(aio, admin_http, http, types, wait):
    gtype, vtype = types
    other_type = gh.volume_type(admin_http)
    group = gh.group(http, gtype['id'], [vtype['id']])
    other_group = gh.group(http, gtype['id'], [vtype['id']])
    member = gh.volume(http, group['id'], vtype['id'], wait)
    free = helpers.create_volume(http, wait_for=wait,
                                 volume_type=vtype['id'])
    wrong_type = helpers.create_volume(http, wait_for=wait,
                                       volume_type=other_type['id'])
    stranger = aio.http(version=gh.VERSION)
    theirs = helpers.create_volume(stranger, wait_for=wait,
                                   volume_type=vtype['id'])
    path = '/groups/%s' % group['id']

    def update(**body):
        return http.put(path, json={'group': body})

    cases = (
        ({'add_volumes': wrong_type['id']}, 'not supported by the group'),
        ({'add_volumes': theirs['id']}, 'cannot be found'),
        ({'add_volumes': str(uuid.uuid4())}, 'cannot be found'),
        ({'add_volumes': '%s,%s' % (free['id'], wrong_type['id'])},
         'not supported'),
        ({'remove_volumes': free['id']}, 'not in the group'),
        ({'add_volumes': free['id'], 'remove_volumes': free['id']},
         'both add and remove'),
        ({'name': group['name']}, 'no valid name'),
    )
    for body, words in cases:
        assert words in gh.error(update(**body), 400), body
    gh.error(http.put(path, json={'group': {}}), 400)
    # A volume in another group joins no second one.
    assert 'already in group' in gh.error(http.put(
        '/groups/%s' % other_group['id'], json={'group': {
            'add_volumes': member['id']}}), 400)
    # Members change only while the group is available.
    admin_http.post(path + '/action', json={
        'reset_status': {'status': 'updating'}})
    assert 'is updating' in gh.error(update(add_volumes=free['id']), 400)
    # Nothing moved.
    assert _members(group['id']) == [member['id']]
    assert _members(other_group['id']) == []
    admin_http.post(path + '/action', json={
        'reset_status': {'status': 'available'}})
    assert gh.delete_group(http, other_group['id']).status_code == 202


def test_deletes_refused(aio, admin_http, http, types, wait):
    gtype, vtype = types
    group = gh.group(http, gtype['id'], [vtype['id']])
    one = gh.volume(http, group['id'], vtype['id'], wait)
    two = gh.volume(http, group['id'], vtype['id'], wait)
    before = gh.usage(http.project)
    assert 'delete-volumes' in gh.error(gh.delete_group(http, group['id']),
                                        400)
    # An attached member (an attachment connected and completed).
    resp = http.post('/attachments', json={'attachment': {
        'volume_uuid': two['id'], 'instance_uuid': str(uuid.uuid4()),
        'connector': {'host': 'h1', 'mountpoint': '/dev/vdb'}}})
    assert resp.status_code == 200, resp.text
    attachment = resp.json()['attachment']
    assert http.post('/attachments/%s/action' % attachment['id'],
                     json={'os-complete': None}).status_code == 204
    message = gh.error(gh.delete_group(http, group['id'], True), 400)
    assert 'is attached' in message or 'in-use' in message
    assert http.delete('/attachments/%s' % attachment['id']).ok
    # A member with a snapshot.
    snapshot = http.post('/snapshots', json={'snapshot': {
        'volume_id': one['id']}}).json()['snapshot']
    gh.wait_status(http, '/snapshots/%s' % snapshot['id'], 'snapshot',
                   'available', wait)
    assert 'dependent snapshots' in gh.error(
        gh.delete_group(http, group['id'], True), 400)
    for volume in (one, two):
        assert http.get('/volumes/%s' % volume['id']).json()['volume'][
            'status'] == 'available'
    assert http.get('/groups/%s' % group['id']).json()['group'][
        'status'] == 'available'
    assert gh.usage(http.project)['groups'] == before['groups']
    assert http.delete('/snapshots/%s' % snapshot['id']).status_code == 202
    gh.wait_gone(http, '/snapshots/%s' % snapshot['id'], wait)
    assert gh.delete_group(http, group['id'], True).status_code == 202
    gh.wait_gone(http, '/groups/%s' % group['id'], wait)
    gh.error(gh.delete_group(http, group['id']), 404)


def test_group_snapshots_refused(aio, admin_http, http, types, wait):
    gtype, vtype = types
    group = gh.group(http, gtype['id'], [vtype['id']])
    one = gh.volume(http, group['id'], vtype['id'], wait)
    gh.volume(http, group['id'], vtype['id'], wait)
    before = gh.usage(http.project)
    gh.error(http.post('/group_snapshots', json={'group_snapshot': {
        'group_id': str(uuid.uuid4())}}), 404)
    gh.error(http.post('/group_snapshots', json={'group_snapshot': {}}),
             400)
    assert aio.http(http.user, http.project, version='3.13').post(
        '/group_snapshots', json={'group_snapshot': {
            'group_id': group['id']}}).status_code == 404
    # Over quota: of snapshots, then of gigabytes (two volumes' worth).
    helpers.set_limits(http.project, snapshots=1)
    assert 'snapshots' in gh.error(http.post('/group_snapshots', json={
        'group_snapshot': {'group_id': group['id']}}), 413)
    helpers.set_limits(http.project, snapshots=10,
                       gigabytes=before['gigabytes'] + 1)
    assert 'gigabytes' in gh.error(http.post('/group_snapshots', json={
        'group_snapshot': {'group_id': group['id']}}), 413)
    helpers.set_limits(http.project, gigabytes=1000)
    # A member that cannot be snapshotted.
    admin_http.post('/volumes/%s/action' % one['id'], json={
        'os-reset_status': {'status': 'error'}})
    assert 'is error' in gh.error(http.post('/group_snapshots', json={
        'group_snapshot': {'group_id': group['id']}}), 400)
    admin_http.post('/volumes/%s/action' % one['id'], json={
        'os-reset_status': {'status': 'available'}})
    # A group that is not available.
    admin_http.post('/groups/%s/action' % group['id'], json={
        'reset_status': {'status': 'error'}})
    assert 'is error' in gh.error(http.post('/group_snapshots', json={
        'group_snapshot': {'group_id': group['id']}}), 400)
    assert gh.usage(http.project) == before
    assert http.get('/group_snapshots').json()['group_snapshots'] == []
    assert http.get('/snapshots').json()['snapshots'] == []
    # A group snapshot being taken is not deleted.
    admin_http.post('/groups/%s/action' % group['id'], json={
        'reset_status': {'status': 'available'}})
    created = gh.group_snapshot(http, group['id'], wait_for=wait)
    path = '/group_snapshots/%s' % created['id']
    admin_http.post(path + '/action', json={
        'reset_status': {'status': 'creating'}})
    assert 'is creating' in gh.error(http.delete(path), 400)
    admin_http.post(path + '/action', json={
        'reset_status': {'status': 'available'}})
    gh.error(http.delete('/group_snapshots/%s' % uuid.uuid4()), 404)
    # A group made of a group snapshot it cannot see, or of a group.
    other = aio.http(version=gh.VERSION)
    gh.error(other.post('/groups/action', json={'create-from-src': {
        'group_snapshot_id': created['id']}}), 404)
    gh.error(other.post('/groups/action', json={'create-from-src': {
        'source_group_id': group['id']}}), 404)
    gh.error(http.post('/groups/action', json={'create-from-src': {
        'source_group_id': group['id'],
        'group_snapshot_id': created['id']}}), 400)
    gh.error(http.post('/groups/action', json={'bogus': {}}), 400)
    # The replication actions are Cinder's, not tether's.
    gh.error(http.post('/groups/%s/action' % group['id'], json={
        'enable_replication': {}}), 400)
    gh.error(other.post('/groups/%s/action' % group['id'], json={
        'enable_replication': {}}), 404)
    assert http.delete(path).status_code == 202
    gh.wait_gone(http, path, wait)
