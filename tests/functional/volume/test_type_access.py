"""Private volume types' access lists over HTTP
(/types/{id}/os-volume-type-access, addProjectAccess, removeProjectAccess):
add, see and use, conflict, remove, confirm gone."""

import uuid

import openstack
import pytest

from tests.functional import helpers


def _name():
    return 'private-' + uuid.uuid4().hex[:8]


@pytest.fixture
def admin_http(aio):
    return aio.http('admin', 'admin', version='3.71')


@pytest.fixture
def private_type(admin_http):
    resp = admin_http.post('/types', json={'volume_type': {
        'name': _name(), 'os-volume-type-access:is_public': False}})
    assert resp.status_code == 200, resp.text
    return resp.json()['volume_type']


def _action(http, type_id, name, project):
    return http.post('/types/%s/action' % type_id,
                     json={name: {'project': project}})


def _names(http, query=''):
    resp = http.get('/types' + query)
    assert resp.status_code == 200, resp.text
    return [t['name'] for t in resp.json()['volume_types']]


def test_access_story(aio, admin_http, private_type, wait):
    type_id, name = private_type['id'], private_type['name']
    member = aio.http()
    other = aio.http('other-user', 'other-project')
    access = '/types/%s/os-volume-type-access' % type_id
    assert admin_http.get(access).json() == {'volume_type_access': []}
    assert member.get('/types/%s' % type_id).status_code == 404

    resp = _action(admin_http, type_id, 'addProjectAccess', member.project)
    assert resp.status_code == 202, resp.text
    assert resp.content == b''
    assert admin_http.get(access).json() == {'volume_type_access': [
        {'volume_type_id': type_id, 'project_id': member.project}]}
    # The project sees it (listed with the public types, shown) and
    # makes volumes of it; another project does not.
    assert name in _names(member)
    shown = member.get('/types/%s' % type_id)
    assert shown.status_code == 200, shown.text
    assert shown.json()['volume_type']['is_public'] is False
    assert name not in _names(other)
    assert other.get('/types/%s' % type_id).status_code == 404
    resp = other.post('/volumes', json={'volume': {'size': 1,
                                                   'volume_type': name}})
    assert resp.status_code == 404, resp.text
    volume = helpers.create_volume(member, size=1, wait_for=wait,
                                   volume_type=name)
    assert volume['volume_type'] == name

    # Again: 409, and the list is unchanged.
    resp = _action(admin_http, type_id, 'addProjectAccess', member.project)
    assert resp.status_code == 409, resp.text
    assert member.project in resp.json()['conflictingRequest']['message']
    assert len(admin_http.get(access).json()['volume_type_access']) == 1

    resp = _action(admin_http, type_id, 'removeProjectAccess',
                   member.project)
    assert resp.status_code == 202, resp.text
    assert admin_http.get(access).json() == {'volume_type_access': []}
    assert name not in _names(member)
    assert member.get('/types/%s' % type_id).status_code == 404
    # The volume keeps its type, as in Cinder.
    resp = member.get('/volumes/%s' % volume['id'])
    assert resp.json()['volume']['volume_type'] == name
    resp = _action(admin_http, type_id, 'removeProjectAccess',
                   member.project)
    assert resp.status_code == 404, resp.text
    assert member.project in resp.json()['itemNotFound']['message']


def test_admin_lists_as_cinder_does(aio, admin_http, private_type):
    name = private_type['name']
    # Private types are not listed by default, unless the admin's own
    # project has access (Cinder's is_public=true: public or accessible).
    assert name not in _names(admin_http)
    assert name in _names(admin_http, '?is_public=false')
    assert name in _names(admin_http, '?is_public=None')
    _action(admin_http, private_type['id'], 'addProjectAccess',
            admin_http.project)
    assert name in _names(admin_http)
    # A member's is_public is ignored: still only what it may use.
    member = aio.http()
    assert name not in _names(member, '?is_public=false')


def test_sdk_add_list_remove(aio, private_type):
    admin = aio.admin()
    user = aio.sdk()
    project = user.test_project
    admin.block_storage.add_type_access(private_type['id'], project)
    assert admin.block_storage.get_type_access(private_type['id']) == [
        {'volume_type_id': private_type['id'], 'project_id': project}]
    assert private_type['name'] in [t.name for t in
                                    user.block_storage.types()]
    admin.block_storage.remove_type_access(private_type['id'], project)
    assert admin.block_storage.get_type_access(private_type['id']) == []
    with pytest.raises(openstack.exceptions.NotFoundException):
        admin.block_storage.remove_type_access(private_type['id'], project)


def test_public_type_has_no_access_list(admin_http):
    resp = admin_http.post('/types', json={'volume_type': {'name': _name()}})
    type_id = resp.json()['volume_type']['id']
    # As Cinder: the list is 404, a change 400.
    resp = admin_http.get('/types/%s/os-volume-type-access' % type_id)
    assert resp.status_code == 404, resp.text
    assert 'public' in resp.json()['itemNotFound']['message']
    for name in ('addProjectAccess', 'removeProjectAccess'):
        resp = _action(admin_http, type_id, name, 'p1')
        assert resp.status_code == 400, resp.text
        assert 'public' in resp.json()['badRequest']['message']


def test_unknown_type_is_404(admin_http):
    missing = str(uuid.uuid4())
    resp = admin_http.get('/types/%s/os-volume-type-access' % missing)
    assert resp.status_code == 404, resp.text
    for name in ('addProjectAccess', 'removeProjectAccess'):
        resp = _action(admin_http, missing, name, 'p1')
        assert resp.status_code == 404, resp.text
        assert missing in resp.json()['itemNotFound']['message']


def test_members_are_refused(aio, private_type):
    member = aio.http()
    type_id = private_type['id']
    resp = member.get('/types/%s/os-volume-type-access' % type_id)
    assert resp.status_code == 403, resp.text
    for name in ('addProjectAccess', 'removeProjectAccess'):
        resp = _action(member, type_id, name, member.project)
        assert resp.status_code == 403, resp.text
    assert member.get('/types/%s' % type_id).status_code == 404


@pytest.mark.parametrize('body, field', [
    ({'addProjectAccess': {}}, "'project' is a required property"),
    ({'addProjectAccess': {'project': ''}}, 'addProjectAccess/project'),
    ({'addProjectAccess': {'project': 7}}, 'addProjectAccess/project'),
    ({'addProjectAccess': {'project': 'x' * 256}},
     'addProjectAccess/project'),
    ({'addProjectAccess': {'project': 'p', 'bogus': 1}}, 'bogus'),
    ({'removeProjectAccess': None}, 'removeProjectAccess'),
    ({'addProjectAccess': {'project': 'p'}, 'x': 1},
     'exactly one key'),
    ({'os-extend': {'new_size': 2}}, 'os-extend'),
])
def test_bad_body_gets_400_naming_the_field(admin_http, private_type, body,
                                            field):
    resp = admin_http.post('/types/%s/action' % private_type['id'],
                           json=body)
    assert resp.status_code == 400, resp.text
    assert field in resp.json()['badRequest']['message']


def test_concurrent_adds_one_wins(aio, admin_http, private_type):
    clients = [aio.http('admin', 'admin') for _ in range(2)]
    results = helpers.race([
        lambda c=c: _action(c, private_type['id'], 'addProjectAccess',
                            'raced-project') for c in clients])
    assert sorted(r.status_code for r in results) == [202, 409], \
        [getattr(r, 'text', r) for r in results]
    resp = admin_http.get('/types/%s/os-volume-type-access'
                          % private_type['id'])
    assert resp.json()['volume_type_access'] == [
        {'volume_type_id': private_type['id'],
         'project_id': 'raced-project'}]


def test_is_public_of_the_extension_for_members_not_readers(aio,
                                                            admin_http,
                                                            private_type):
    """As Cinder's volume_extension:volume_type_access: the type access
    extension's is_public is shown to members and administrators; a
    reader sees the type's own is_public alone."""
    type_id = private_type['id']
    assert private_type['os-volume-type-access:is_public'] is False
    member = aio.http()
    _action(admin_http, type_id, 'addProjectAccess', member.project)
    reader = aio.http(member.user, member.project, roles=['reader'])
    for http, shown in ((admin_http, True), (member, True),
                        (reader, False)):
        body = http.get('/types/%s' % type_id).json()['volume_type']
        assert ('os-volume-type-access:is_public' in body) == shown, body
        assert body['is_public'] is False
        types = http.get('/types?is_public=None').json()['volume_types']
        (listed,) = [t for t in types if t['id'] == type_id]
        assert ('os-volume-type-access:is_public' in listed) == shown
