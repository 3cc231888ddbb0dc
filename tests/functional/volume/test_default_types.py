"""Projects' default volume types over HTTP (/default-types, 3.62): set,
see and use (a volume created without a type), change, refuse, unset,
confirm gone; openstacksdk's proxy calls."""

import uuid

import pytest

from tests.functional import helpers

V = '3.62'


def _type(admin_http, **extra):
    resp = admin_http.post('/types', json={'volume_type': dict(
        name='dt-' + uuid.uuid4().hex[:8], **extra)})
    assert resp.status_code == 200, resp.text
    return resp.json()['volume_type']


@pytest.fixture
def admin_http(aio):
    return aio.http('admin', 'admin', version=V)


def _set(http, project, volume_type):
    return http.put('/default-types/%s' % project,
                    json={'default_type': {'volume_type': volume_type}})


def test_default_type_story(aio, admin_http, wait):
    member = aio.http(version=V)
    other = aio.http(version=V)
    first, second = _type(admin_http), _type(admin_http)
    path = '/default-types/%s' % member.project
    assert admin_http.get(path).status_code == 404

    # By name; the answer names the type by ID.
    resp = _set(admin_http, member.project, first['name'])
    assert resp.status_code == 200, resp.text
    assert resp.json() == {'default_type': {
        'project_id': member.project, 'volume_type_id': first['id']}}
    assert admin_http.get(path).json() == resp.json()
    listed = admin_http.get('/default-types').json()['default_types']
    assert {'project_id': member.project,
            'volume_type_id': first['id']} in listed

    # The project's volumes without a type get it; another project's
    # get the configured default; a type named still wins.
    volume = helpers.create_volume(member, size=1, wait_for=wait)
    assert volume['volume_type'] == first['name']
    assert member.get('/types/default').json()['volume_type']['id'] == \
        first['id']
    assert helpers.create_volume(other, size=1, wait_for=wait)[
        'volume_type'] == '__DEFAULT__'
    assert helpers.create_volume(member, size=1, wait_for=wait,
                                 volume_type=second['name'])[
        'volume_type'] == second['name']

    # Changed, by ID.
    resp = _set(admin_http, member.project, second['id'])
    assert resp.status_code == 200, resp.text
    assert resp.json()['default_type']['volume_type_id'] == second['id']
    assert helpers.create_volume(member, size=1, wait_for=wait)[
        'volume_type'] == second['name']

    # A type that is a project's default is not deleted.
    resp = admin_http.delete('/types/%s' % second['id'])
    assert resp.status_code == 400, resp.text
    assert resp.json()['badRequest']['error_code'] == \
        'volume.type.is_project_default'
    assert member.project in resp.json()['badRequest']['message']

    # Unset: the configured default again; unset again is fine.
    for _ in range(2):
        resp = admin_http.delete(path)
        assert resp.status_code == 204, resp.text
        assert resp.content == b''
    resp = admin_http.get(path)
    assert resp.status_code == 404, resp.text
    assert resp.json()['itemNotFound']['error_code'] == \
        'volume.default_type.not_found'
    assert helpers.create_volume(member, size=1, wait_for=wait)[
        'volume_type'] == '__DEFAULT__'
    assert member.get('/types/default').json()['volume_type'][
        'name'] == '__DEFAULT__'
    # No longer a default: a type without volumes goes again.
    unused = _type(admin_http)
    assert _set(admin_http, member.project, unused['id']).status_code == 200
    assert admin_http.delete(path).status_code == 204
    assert admin_http.delete('/types/%s' % unused['id']).status_code == 202


def test_a_private_default_type_serves_its_project(aio, admin_http, wait):
    """The administrator chose it for the project: its volumes get it
    without the project being on its access list, as in Cinder."""
    member = aio.http(version=V)
    private = _type(admin_http, **{'os-volume-type-access:is_public':
                                   False})
    assert _set(admin_http, member.project, private['id']).status_code == 200
    volume = helpers.create_volume(member, size=1, wait_for=wait)
    assert volume['volume_type'] == private['name']
    # Named, it is still refused to a project not on its list.
    resp = member.post('/volumes', json={'volume': {
        'size': 1, 'volume_type': private['name']}})
    assert resp.status_code == 404, resp.text
    admin_http.delete('/default-types/%s' % member.project)


def test_refusals_change_nothing(aio, admin_http):
    member = aio.http(version=V)
    vtype = _type(admin_http)
    path = '/default-types/%s' % member.project
    assert _set(admin_http, member.project, vtype['id']).status_code == 200
    before = admin_http.get(path).json()
    for body in ({}, {'default_type': {}}, {'default_type': 'x'},
                 {'default_type': {'volume_type': ''}},
                 {'default_type': {'volume_type': 'x', 'color': 'red'}},
                 {'default_type': {'volume_type': 'x' * 256}}):
        resp = admin_http.put(path, json=body)
        assert resp.status_code == 400, (body, resp.text)
    # A type that does not exist is bad input, as in Cinder.
    resp = _set(admin_http, member.project, 'no-such-type')
    assert resp.status_code == 400, resp.text
    assert 'no-such-type' in resp.json()['badRequest']['message']
    resp = _set(admin_http, 'p' * 256, vtype['id'])
    assert resp.status_code == 400, resp.text
    # Administrators only; before 3.62 there is no such resource.
    for http in (member, aio.http(member.user, member.project,
                                  roles=['reader'], version=V)):
        assert _set(http, member.project, vtype['id']).status_code == 403
        assert http.get(path).status_code == 403
        assert http.get('/default-types').status_code == 403
        assert http.delete(path).status_code == 403
    old = aio.http('admin', 'admin', version='3.61')
    assert _set(old, member.project, vtype['id']).status_code == 404
    assert old.get(path).status_code == 404
    assert old.get('/default-types').status_code == 404
    assert old.delete(path).status_code == 404
    assert admin_http.get('%s?color=red' % path).status_code == 400
    assert admin_http.get(path).json() == before
    admin_http.delete(path)


def test_two_sets_at_once_leave_one_of_them(aio, admin_http):
    member = aio.http(version=V)
    types = [_type(admin_http) for _ in range(4)]
    sessions = [aio.http('admin', 'admin', version=V) for _ in types]
    results = helpers.race([
        lambda h=h, t=t: _set(h, member.project, t['id'])
        for h, t in zip(sessions, types)])
    assert [r.status_code for r in results] == [200] * len(types)
    final = admin_http.get('/default-types/%s' % member.project).json()
    assert final['default_type']['volume_type_id'] in {
        t['id'] for t in types}
    admin_http.delete('/default-types/%s' % member.project)


def test_a_set_and_a_delete_of_its_type_at_once(aio, admin_http):
    """Either the type goes and the set is refused, or the set wins and
    the delete is refused: never a default of a type that is gone."""
    for _ in range(3):
        member = aio.http(version=V)
        vtype = _type(admin_http)
        setter = aio.http('admin', 'admin', version=V)
        deleter = aio.http('admin', 'admin', version=V)
        set_resp, delete_resp = helpers.race([
            lambda: _set(setter, member.project, vtype['id']),
            lambda: deleter.delete('/types/%s' % vtype['id'])])
        shown = admin_http.get('/default-types/%s' % member.project)
        if set_resp.status_code == 200:
            assert delete_resp.status_code == 400, delete_resp.text
            assert shown.json()['default_type']['volume_type_id'] == \
                vtype['id']
            assert admin_http.get('/types/%s' % vtype['id']) \
                .status_code == 200
            admin_http.delete('/default-types/%s' % member.project)
        else:
            assert (set_resp.status_code, delete_resp.status_code) == \
                (400, 202), (set_resp.text, delete_resp.text)
            assert shown.status_code == 404


def test_openstacksdk_default_types(aio, admin):
    member = aio.sdk()
    vtype = admin.block_storage.create_type(name='dt-' + uuid.uuid4().hex[:8])
    project = member.test_project
    made = admin.block_storage.set_default_type(project, vtype)
    assert (made.project_id, made.volume_type_id) == (project, vtype.id)
    shown = admin.block_storage.show_default_type(project)
    assert shown.volume_type_id == vtype.id
    assert (project, vtype.id) in [
        (d.project_id, d.volume_type_id)
        for d in admin.block_storage.default_types()]
    volume = member.block_storage.create_volume(size=1)
    assert member.block_storage.get_volume(volume).volume_type == vtype.name
    admin.block_storage.unset_default_type(project)
    with pytest.raises(Exception) as raised:
        admin.block_storage.show_default_type(project)
    assert getattr(raised.value, 'status_code', None) == 404
