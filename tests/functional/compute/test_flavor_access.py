"""Private flavors and their access lists over HTTP: addTenantAccess,
removeTenantAccess, os-flavor-access; who lists, shows and boots a
private flavor; policies; races; the openstack CLI."""

import uuid

import openstack
import pytest

from tests.functional import cli
from tests.functional.compute import server_helpers as sh
from tests.functional import helpers

ADMIN = ('admin', 'admin')


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


@pytest.fixture
def private(aio):
    """A private flavor of the test's own, deleted after it."""
    admin = aio.admin()
    made = admin.compute.create_flavor(
        name='fa-' + uuid.uuid4().hex[:8], ram=64, vcpus=1, disk=0,
        is_public=False)
    yield made
    admin.compute.delete_flavor(made.id)


def _access(aio, flavor_id):
    resp = aio.compute_http(*ADMIN).get('/flavors/%s/os-flavor-access'
                                        % flavor_id)
    assert resp.status_code == 200, resp.text
    return resp.json()['flavor_access']


def _action(aio, flavor_id, name, tenant, version='2.7'):
    return aio.compute_http(*ADMIN, version=version).post(
        '/flavors/%s/action' % flavor_id, json={name: {'tenant': tenant}})


def test_story_with_openstacksdk(cloud, private):
    aio = cloud.aio
    user = cloud.project()
    admin = aio.admin()
    assert admin.compute.get_flavor_access(private) == []
    # Before access: not listed, not shown, not bootable (400 as Nova).
    assert private.id not in [f.id for f in user.conn.compute.flavors()]
    with pytest.raises(openstack.exceptions.NotFoundException):
        user.conn.compute.get_flavor(private.id)
    with pytest.raises(openstack.exceptions.BadRequestException):
        user.boot(flavor=private.id, wait=False)

    admin.compute.flavor_add_tenant_access(private, user.project)
    assert admin.compute.get_flavor_access(private) == [
        {'flavor_id': private.id, 'tenant_id': user.project}]
    assert private.id in [f.id for f in user.conn.compute.flavors()]
    assert user.conn.compute.get_flavor(private.id).name == private.name
    # The API takes the server (no host is in that zone: it errors).
    server = user.boot(flavor=private.id, wait=False,
                       availability_zone='nowhere')
    shown = user.compute().get('/servers/%s' % server.id)
    assert shown.status_code == 200, shown.text
    # Another project still sees nothing.
    other = cloud.project()
    with pytest.raises(openstack.exceptions.NotFoundException):
        other.conn.compute.get_flavor(private.id)

    admin.compute.flavor_remove_tenant_access(private, user.project)
    assert admin.compute.get_flavor_access(private) == []
    with pytest.raises(openstack.exceptions.NotFoundException):
        user.conn.compute.get_flavor(private.id)


def test_responses_and_conflicts_over_http(aio, private):
    resp = _action(aio, private.id, 'addTenantAccess', 'p1')
    assert resp.status_code == 200, resp.text
    assert resp.json() == {'flavor_access': [
        {'flavor_id': private.id, 'tenant_id': 'p1'}]}
    resp = _action(aio, private.id, 'addTenantAccess', 'p2')
    assert [a['tenant_id'] for a in resp.json()['flavor_access']] == [
        'p1', 'p2']
    resp = _action(aio, private.id, 'addTenantAccess', 'p1')
    assert resp.status_code == 409, resp.text
    assert resp.json()['conflictingRequest']['message'] == (
        'Flavor access already exists for flavor %s and project p1 '
        'combination.' % private.id)
    resp = _action(aio, private.id, 'removeTenantAccess', 'p1')
    assert resp.status_code == 200, resp.text
    assert resp.json() == {'flavor_access': [
        {'flavor_id': private.id, 'tenant_id': 'p2'}]}
    resp = _action(aio, private.id, 'removeTenantAccess', 'p1')
    assert resp.status_code == 404, resp.text
    assert resp.json()['itemNotFound']['error_code'] == (
        'compute.flavor.access_not_found')
    assert _access(aio, private.id) == [{'flavor_id': private.id,
                                         'tenant_id': 'p2'}]


def test_public_flavors_have_no_access_list(aio):
    http = aio.compute_http(*ADMIN)
    resp = http.get('/flavors/1/os-flavor-access')
    assert resp.status_code == 404, resp.text
    assert resp.json()['itemNotFound']['message'] == (
        'Access list not available for public flavors.')
    # From 2.7 access to a public flavor is a conflict.
    resp = _action(aio, '1', 'addTenantAccess', 'p1')
    assert resp.status_code == 409, resp.text
    assert 'public flavor' in resp.json()['conflictingRequest']['message']
    # Before, Nova lists the project (to no effect); removed again here.
    resp = _action(aio, '1', 'addTenantAccess', 'p-old', version='2.6')
    assert resp.status_code == 200, resp.text
    resp = _action(aio, '1', 'removeTenantAccess', 'p-old')
    assert resp.status_code == 200, resp.text


def test_unknown_flavor_and_bad_bodies(aio, private):
    http = aio.compute_http(*ADMIN)
    assert http.get('/flavors/nope/os-flavor-access').status_code == 404
    for name in ('addTenantAccess', 'removeTenantAccess'):
        resp = _action(aio, 'nope', name, 'p1')
        assert resp.status_code == 404, resp.text
        for body, field in (({name: {}}, 'tenant'),
                            ({name: {'tenant': ''}}, 'tenant'),
                            ({name: {'tenant': 'x' * 256}}, 'tenant'),
                            ({name: {'tenant': 'p', 'x': 1}}, 'x'),
                            ({name: 'p1'}, name)):
            resp = http.post('/flavors/%s/action' % private.id, json=body)
            assert resp.status_code == 400, (body, resp.text)
            assert field in resp.json()['badRequest']['message'], body
    assert _access(aio, private.id) == []


def test_policies(aio, private):
    member = aio.compute_http()
    base = '/flavors/%s' % private.id
    assert member.get(base + '/os-flavor-access').status_code == 403
    for name in ('addTenantAccess', 'removeTenantAccess'):
        resp = member.post(base + '/action', json={name: {'tenant': 'p'}})
        assert resp.status_code == 403, resp.text
    assert _access(aio, private.id) == []


def test_is_public_filter(aio, private):
    admin = aio.compute_http(*ADMIN)
    user_project = 'project-' + uuid.uuid4().hex[:8]
    user = aio.compute_http(project=user_project)
    _action(aio, private.id, 'addTenantAccess', user_project)

    def ids(http, query=''):
        resp = http.get('/flavors/detail' + query)
        assert resp.status_code == 200, resp.text
        return {f['id']: f['os-flavor-access:is_public']
                for f in resp.json()['flavors']}

    # The project with access gets it whatever it asks, as Nova.
    for query in ('', '?is_public=false', '?is_public=none'):
        listed = ids(user, query)
        assert listed[private.id] is False and listed['1'] is True
    # Administrators: public (and their project's), private, or all.
    assert private.id not in ids(admin)
    assert private.id in ids(admin, '?is_public=false')
    assert '1' not in ids(admin, '?is_public=false')
    assert {private.id, '1'} <= set(ids(admin, '?is_public=none'))


def test_two_adds_of_one_project_race(aio, private):
    results = helpers.race([
        (lambda: _action(aio, private.id, 'addTenantAccess', 'p-race'))
        for _ in range(2)])
    assert sorted(r.status_code for r in results) == [200, 409]
    assert _access(aio, private.id) == [{'flavor_id': private.id,
                                         'tenant_id': 'p-race'}]
    results = helpers.race([
        (lambda: _action(aio, private.id, 'removeTenantAccess', 'p-race'))
        for _ in range(2)])
    assert sorted(r.status_code for r in results) == [200, 404]
    assert _access(aio, private.id) == []


def test_deleting_the_flavor_takes_its_access(aio):
    admin = aio.admin()
    flavor = admin.compute.create_flavor(
        name='fa-' + uuid.uuid4().hex[:8], ram=64, vcpus=1, disk=0,
        is_public=False)
    admin.compute.flavor_add_tenant_access(flavor, 'p-gone')
    admin.compute.delete_flavor(flavor)
    # A new flavor of the same ID starts with no access.
    again = aio.compute_http(*ADMIN).post('/flavors', json={'flavor': {
        'name': flavor.name, 'id': flavor.id, 'ram': 64, 'vcpus': 1,
        'os-flavor-access:is_public': False}})
    assert again.status_code == 200, again.text
    assert _access(aio, flavor.id) == []
    admin.compute.delete_flavor(flavor.id)


def test_the_openstack_cli(aio, private, tmp_path):
    # "openstack flavor set --project" looks the project up in Keystone
    # first, which tether's noauth tests have none of: access is given
    # with openstacksdk, and the CLI shows it.
    aio.admin().compute.flavor_add_tenant_access(private, 'p-cli')
    osc = cli.CLI(aio, tmp_path, 'admin', 'admin')
    shown = osc.json('flavor', 'show', private.id)
    assert shown['access_project_ids'] == ['p-cli']
    assert shown['os-flavor-access:is_public'] is False
    listed = osc.json('flavor', 'list', '--private')
    assert private.id in [f['ID'] for f in listed]
