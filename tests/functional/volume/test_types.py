"""Volume types and their extra specs over HTTP (/types)."""

import uuid

import openstack
import pytest

from tests.functional import helpers

MULTIATTACH = {'multiattach': '<is> True'}


def _name():
    return 'type-' + uuid.uuid4().hex[:8]


@pytest.fixture
def admin_http(aio):
    return aio.http('admin', 'admin', version='3.71')


def test_default_type_is_listed_and_shown(aio):
    user = aio.sdk()
    names = [t.name for t in user.block_storage.types()]
    assert '__DEFAULT__' in names
    http = aio.http()
    # Served at every version, as Cinder does (cinderclient and
    # "openstack volume type list --default" send no microversion).
    for version in ('3.0', '3.62', '3.71'):
        resp = http.get('/types/default',
                        headers={'OpenStack-API-Version': 'volume ' +
                                 version})
        assert resp.status_code == 200, resp.text
        assert resp.json()['volume_type']['name'] == '__DEFAULT__'


def test_create_multiattach_type_and_use_it(aio, wait):
    admin = aio.admin()
    name = _name()
    vtype = admin.block_storage.create_type(name=name,
                                            extra_specs=MULTIATTACH)
    assert vtype.name == name
    assert vtype.extra_specs == MULTIATTACH
    assert vtype.is_public is True

    user = aio.sdk()
    volume = user.block_storage.create_volume(size=1, volume_type=name)
    volume = user.block_storage.wait_for_status(volume, 'available',
                                                interval=0.05, wait=30)
    assert volume.is_multiattach is True
    assert volume.volume_type == name

    # A type in use keeps its extra specs and cannot be deleted.
    with pytest.raises(openstack.exceptions.BadRequestException):
        admin.block_storage.delete_type(vtype.id)
    with pytest.raises(openstack.exceptions.BadRequestException):
        admin.block_storage.update_type_extra_specs(vtype, multiattach='x')
    with pytest.raises(openstack.exceptions.BadRequestException):
        admin.block_storage.delete_type_extra_specs(vtype, ['multiattach'])

    user.block_storage.delete_volume(volume)
    http = aio.http(user.test_user, user.test_project)
    wait(lambda: http.get('/volumes/%s' % volume.id).status_code == 404,
         what='volume deleted')
    admin.block_storage.delete_type(vtype.id)
    assert name not in [t.name for t in admin.block_storage.types()]


def test_wire_format(aio, admin_http):
    name = _name()
    resp = admin_http.post('/types', json={'volume_type': {
        'name': name, 'description': 'fast disks',
        'os-volume-type-access:is_public': True,
        'extra_specs': dict(MULTIATTACH, volume_backend_name='local')}})
    assert resp.status_code == 200, resp.text
    body = resp.json()['volume_type']
    # As Cinder answers a create (Tempest's schema refuses qos_specs_id
    # here).
    assert body == {
        'id': body['id'], 'name': name, 'description': 'fast disks',
        'is_public': True, 'os-volume-type-access:is_public': True,
        'extra_specs': {'multiattach': '<is> True',
                        'volume_backend_name': 'local'}}
    # A show adds qos_specs_id, for admins.
    assert admin_http.get('/types/%s' % body['id']).json()[
        'volume_type'] == dict(body, qos_specs_id=None)
    # An update answers without the type access extension's key.
    resp = admin_http.put('/types/%s' % body['id'], json={
        'volume_type': {'description': 'faster disks'}})
    assert resp.status_code == 200, resp.text
    assert resp.json()['volume_type'] == {
        'id': body['id'], 'name': name, 'description': 'faster disks',
        'is_public': True, 'extra_specs': body['extra_specs']}
    # Members see the user visible extra specs only, and no qos_specs_id.
    member = aio.http()
    shown = member.get('/types/%s' % body['id']).json()['volume_type']
    assert shown['extra_specs'] == MULTIATTACH
    assert 'qos_specs_id' not in shown
    # By name as well as by id.
    assert member.get('/types/%s' % name).json()['volume_type']['id'] == \
        body['id']


def test_update_type(aio):
    admin = aio.admin()
    vtype = admin.block_storage.create_type(name=_name())
    new_name = _name()
    updated = admin.block_storage.update_type(vtype, name=new_name,
                                              description='d')
    assert updated.name == new_name
    assert updated.description == 'd'
    assert admin.block_storage.get_type(vtype.id).name == new_name


def test_private_types_are_for_admins(aio, admin_http):
    name = _name()
    resp = admin_http.post('/types', json={'volume_type': {
        'name': name, 'os-volume-type-access:is_public': False}})
    assert resp.status_code == 200, resp.text
    type_id = resp.json()['volume_type']['id']

    def names(http, query=''):
        return [t['name'] for t in
                http.get('/types' + query).json()['volume_types']]

    assert name not in names(admin_http)
    assert name in names(admin_http, '?is_public=false')
    assert name in names(admin_http, '?is_public=None')
    member = aio.http()
    assert name not in names(member, '?is_public=None')
    assert member.get('/types/%s' % type_id).status_code == 404
    # Nor can a member create a volume of it, by name or id: nothing is
    # counted against the quota.
    for ref in (name, type_id):
        resp = member.post('/volumes', json={'volume': {
            'size': 1, 'volume_type': ref}})
        assert resp.status_code == 404, resp.text
        assert ref in resp.json()['itemNotFound']['message']
    assert member.get('/volumes').json()['volumes'] == []
    resp = admin_http.post('/volumes', json={'volume': {
        'size': 1, 'volume_type': name}})
    assert resp.status_code == 202, resp.text
    admin_http.delete('/volumes/%s' % resp.json()['volume']['id'])
    # Public again.
    resp = admin_http.put('/types/%s' % type_id,
                          json={'volume_type': {'is_public': True}})
    assert resp.status_code == 200, resp.text
    assert name in names(member)


def test_extra_specs_crud(aio):
    admin = aio.admin()
    vtype = admin.block_storage.create_type(name=_name())
    specs = admin.block_storage.update_type_extra_specs(
        vtype, multiattach='<is> True', volume_backend_name='local')
    assert specs.extra_specs == {'multiattach': '<is> True',
                                 'volume_backend_name': 'local'}
    admin.block_storage.delete_type_extra_specs(vtype,
                                                ['volume_backend_name'])
    assert admin.block_storage.get_type(vtype).extra_specs == MULTIATTACH


def test_extra_spec_items_over_http(aio, admin_http):
    resp = admin_http.post('/types', json={'volume_type': {
        'name': _name(), 'extra_specs': {'volume_backend_name': 'local'}}})
    type_id = resp.json()['volume_type']['id']
    base = '/types/%s/extra_specs' % type_id

    resp = admin_http.put(base + '/multiattach',
                          json={'multiattach': '<is> True'})
    assert resp.status_code == 200, resp.text
    assert resp.json() == MULTIATTACH
    assert admin_http.get(base + '/multiattach').json() == MULTIATTACH
    assert admin_http.get(base).json() == {'extra_specs': {
        'volume_backend_name': 'local', 'multiattach': '<is> True'}}

    member = aio.http()
    assert member.get(base).json() == {'extra_specs': MULTIATTACH}
    # A sensitive key is as good as absent for a member.
    assert member.get(base + '/volume_backend_name').status_code == 404

    resp = admin_http.delete(base + '/multiattach')
    assert resp.status_code == 202, resp.text
    assert admin_http.get(base + '/multiattach').status_code == 404
    assert admin_http.delete(base + '/multiattach').status_code == 404


def test_default_type_cannot_be_deleted_or_renamed(admin_http):
    resp = admin_http.delete('/types/__DEFAULT__')
    assert resp.status_code == 400, resp.text
    assert 'default' in resp.json()['badRequest']['message']
    resp = admin_http.put('/types/__DEFAULT__',
                          json={'volume_type': {'name': _name()}})
    assert resp.status_code == 400, resp.text
    # Its description may change.
    resp = admin_http.put('/types/__DEFAULT__', json={'volume_type': {
        'description': 'Default Volume Type'}})
    assert resp.status_code == 200, resp.text


def test_duplicate_name_is_409(aio, admin_http):
    name = _name()
    body = {'volume_type': {'name': name}}
    assert admin_http.post('/types', json=body).status_code == 200
    resp = admin_http.post('/types', json=body)
    assert resp.status_code == 409, resp.text
    assert name in resp.json()['conflictingRequest']['message']
    other = admin_http.post('/types', json={'volume_type': {
        'name': _name()}}).json()['volume_type']['id']
    resp = admin_http.put('/types/%s' % other, json=body)
    assert resp.status_code == 409, resp.text


def test_member_cannot_write(aio):
    user = aio.sdk()
    with pytest.raises(openstack.exceptions.ForbiddenException):
        user.block_storage.create_type(name=_name())
    http = aio.http()
    for method, path, body in (
            ('PUT', '/types/__DEFAULT__', {'volume_type': {
                'description': 'x'}}),
            ('DELETE', '/types/__DEFAULT__', None),
            ('POST', '/types/__DEFAULT__/extra_specs', {
                'extra_specs': {'k': 'v'}}),
            ('PUT', '/types/__DEFAULT__/extra_specs/k', {'k': 'v'}),
            ('DELETE', '/types/__DEFAULT__/extra_specs/k', None)):
        resp = http.request(method, path, json=body)
        assert resp.status_code == 403, (method, path, resp.text)


def test_unknown_type_is_404(aio, admin_http):
    user = aio.sdk()
    with pytest.raises(openstack.exceptions.NotFoundException):
        user.block_storage.get_type(str(uuid.uuid4()))
    missing = '/types/%s' % uuid.uuid4()
    for method, path, body in (
            ('GET', missing, None),
            ('PUT', missing, {'volume_type': {'description': 'x'}}),
            ('DELETE', missing, None),
            ('GET', missing + '/extra_specs', None),
            ('POST', missing + '/extra_specs', {'extra_specs': {'k': 'v'}}),
            ('GET', missing + '/extra_specs/k', None),
            ('PUT', missing + '/extra_specs/k', {'k': 'v'}),
            ('DELETE', missing + '/extra_specs/k', None)):
        resp = admin_http.request(method, path, json=body)
        assert resp.status_code == 404, (method, path, resp.text)
        assert resp.json()['itemNotFound']['message']


@pytest.mark.parametrize('volume_type, field', [
    ({}, "'name' is a required property"),
    ({'name': ''}, 'volume_type/name'),
    ({'name': '   '}, 'volume_type/name'),
    ({'name': 'x' * 256}, 'volume_type/name'),
    ({'name': 7}, 'volume_type/name'),
    ({'name': 'ok', 'description': 'd' * 256}, 'volume_type/description'),
    ({'name': 'ok', 'os-volume-type-access:is_public': 'maybe'},
     'volume_type/os-volume-type-access:is_public'),
    ({'name': 'ok', 'extra_specs': {'k': 1}}, 'volume_type/extra_specs/k'),
    ({'name': 'ok', 'extra_specs': {'bad key!': 'v'}}, 'bad key!'),
    ({'name': 'ok', 'extra_specs': []}, 'volume_type/extra_specs'),
    ({'name': 'ok', 'is_public': True}, 'is_public'),
    ({'name': 'ok', 'bogus': 1}, 'bogus'),
])
def test_bad_create_gets_400_naming_the_field(admin_http, volume_type,
                                              field):
    resp = admin_http.post('/types', json={'volume_type': volume_type})
    assert resp.status_code == 400, resp.text
    assert field in resp.json()['badRequest']['message']


@pytest.mark.parametrize('body, field', [
    ({'volume_type': {}}, 'volume_type'),
    ({'volume_type': {'is_public': 'maybe'}}, 'volume_type/is_public'),
    ({'volume_type': {'name': ' '}}, 'volume_type/name'),
    ({'volume_type': {'extra_specs': {}}}, 'extra_specs'),
    ({'type': {}}, 'type'),
])
def test_bad_update_gets_400_naming_the_field(admin_http, body, field):
    resp = admin_http.post('/types', json={'volume_type': {'name': _name()}})
    resp = admin_http.put('/types/%s' % resp.json()['volume_type']['id'],
                          json=body)
    assert resp.status_code == 400, resp.text
    assert field in resp.json()['badRequest']['message']


@pytest.mark.parametrize('method, suffix, body, field', [
    ('POST', '', {}, 'extra_specs'),
    ('POST', '', {'extra_specs': {'k': None}}, 'extra_specs/k'),
    ('POST', '', {'extra_specs': {'k': 'v' * 256}}, 'extra_specs/k'),
    ('PUT', '/k', {}, 'body'),
    ('PUT', '/k', {'other': 'v'}, 'k'),
    ('PUT', '/k', {'k': 'v', 'l': 'w'}, 'k'),
    ('PUT', '/k', {'k': 5}, 'k'),
])
def test_bad_extra_specs_get_400(admin_http, method, suffix, body, field):
    resp = admin_http.post('/types', json={'volume_type': {'name': _name()}})
    url = '/types/%s/extra_specs%s' % (resp.json()['volume_type']['id'],
                                       suffix)
    resp = admin_http.request(method, url, json=body)
    assert resp.status_code == 400, resp.text
    assert field in resp.json()['badRequest']['message']


@pytest.mark.parametrize('query, field', [
    ('is_public=maybe', 'is_public'),
    ('limit=-1', 'limit'),
    ('sort_key=size', 'size'),
    ('sort_dir=up', 'sort_dir'),
    ('sort=name&sort_key=name', 'sort'),
    # A fixed ID: xdist workers must collect the same test names.
    ('marker=0b5c8a3e-6c1d-4c55-9a51-5b8f4a1c2d3e', 'marker'),
    ('extra_specs=x', 'extra_specs'),
])
def test_bad_list_query_gets_400(aio, query, field):
    resp = aio.http().get('/types?' + query)
    assert resp.status_code == 400, resp.text
    assert field in resp.json()['badRequest']['message']


def test_list_pages_and_sorts(admin_http):
    names = sorted(_name() for _ in range(3))
    for name in names:
        admin_http.post('/types', json={'volume_type': {'name': name}})
    listed = [t['name'] for t in admin_http.get(
        '/types?sort=name:asc').json()['volume_types']]
    assert listed == sorted(listed)
    first = admin_http.get('/types?sort=name:asc&limit=2').json()
    assert len(first['volume_types']) == 2
    marker = first['volume_types'][-1]['id']
    (link,) = first['volume_type_links']
    assert link['rel'] == 'next'
    assert 'marker=%s' % marker in link['href']
    rest = admin_http.get('/types?sort=name:asc&marker=%s' % marker).json()
    assert [t['name'] for t in first['volume_types'] + rest['volume_types']
            ] == listed


def test_show_query_is_validated(aio):
    resp = aio.http().get('/types/__DEFAULT__?x=1')
    assert resp.status_code == 400, resp.text
    assert 'x' in resp.json()['badRequest']['message']


def test_volume_of_a_type_is_created_through_http(aio, wait, admin_http):
    name = _name()
    admin_http.post('/types', json={'volume_type': {'name': name}})
    http = aio.http()
    volume = helpers.create_volume(http, size=1, volume_type=name,
                                   wait_for=wait)
    assert volume['volume_type'] == name
    assert volume['multiattach'] is False
