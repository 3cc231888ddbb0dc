"""Flavor extra specs over HTTP (/flavors/{id}/os-extra_specs): list,
show a key, merge, set a key, delete a key; policies; races; the
openstack CLI."""

import uuid

import openstack
import pytest

from tests.functional import cli
from tests.functional import helpers

ADMIN = ('admin', 'admin')


@pytest.fixture
def flavor(aio):
    """A public flavor of the test's own, deleted after it."""
    admin = aio.admin()
    made = admin.compute.create_flavor(
        name='fes-' + uuid.uuid4().hex[:8], ram=64, vcpus=1, disk=0)
    yield made
    admin.compute.delete_flavor(made.id)


def _specs(aio, flavor_id):
    resp = aio.compute_http(*ADMIN).get('/flavors/%s/os-extra_specs'
                                        % flavor_id)
    assert resp.status_code == 200, resp.text
    return resp.json()['extra_specs']


def test_story_with_openstacksdk(aio, flavor):
    admin = aio.admin()
    admin.compute.create_flavor_extra_specs(
        flavor, {'hw:cpu_policy': 'dedicated', 'quota:cpu_shares': '512'})
    user = aio.sdk()
    shown = user.compute.fetch_flavor_extra_specs(flavor.id)
    assert shown.extra_specs == {'hw:cpu_policy': 'dedicated',
                                 'quota:cpu_shares': '512'}
    assert user.compute.get_flavor_extra_specs_property(
        flavor.id, 'hw:cpu_policy') == 'dedicated'
    # POST merges: the other key stays.
    admin.compute.create_flavor_extra_specs(flavor, {'hw:cpu_policy':
                                                     'shared'})
    assert admin.compute.update_flavor_extra_specs_property(
        flavor, 'quota:cpu_shares', '1024') == '1024'
    assert _specs(aio, flavor.id) == {'hw:cpu_policy': 'shared',
                                      'quota:cpu_shares': '1024'}
    # From 2.61 the flavor carries them.
    assert user.compute.get_flavor(flavor.id).extra_specs == {
        'hw:cpu_policy': 'shared', 'quota:cpu_shares': '1024'}
    admin.compute.delete_flavor_extra_specs_property(flavor,
                                                     'hw:cpu_policy')
    assert _specs(aio, flavor.id) == {'quota:cpu_shares': '1024'}
    with pytest.raises(openstack.exceptions.NotFoundException):
        admin.compute.delete_flavor_extra_specs_property(
            flavor, 'hw:cpu_policy', ignore_missing=False)


def test_every_route_over_http(aio, flavor):
    http = aio.compute_http(*ADMIN)
    base = '/flavors/%s/os-extra_specs' % flavor.id
    assert http.get(base).json() == {'extra_specs': {}}
    # Numbers are taken as their strings; the answer echoes the request.
    resp = http.post(base, json={'extra_specs': {'a': 'x', 'b': 2}})
    assert resp.status_code == 200, resp.text
    assert resp.json() == {'extra_specs': {'a': 'x', 'b': 2}}
    assert http.get(base).json() == {'extra_specs': {'a': 'x', 'b': '2'}}
    resp = http.get(base + '/b')
    assert (resp.status_code, resp.json()) == (200, {'b': '2'})
    resp = http.put(base + '/a', json={'a': 'y'})
    assert (resp.status_code, resp.json()) == (200, {'a': 'y'})
    # 200 without a body, as Nova answers.
    resp = http.delete(base + '/a')
    assert (resp.status_code, resp.content) == (200, b'')
    resp = http.get(base + '/a')
    assert resp.status_code == 404, resp.text
    assert resp.json()['itemNotFound']['message'] == (
        'Flavor %s has no extra specs with key a.' % flavor.id)
    assert resp.json()['itemNotFound']['error_code'] == (
        'compute.flavor.extra_spec_not_found')
    assert http.delete(base + '/a').status_code == 404
    assert http.get(base).json() == {'extra_specs': {'b': '2'}}


@pytest.mark.parametrize('method,path,body,field', [
    ('POST', '', {'extra_specs': {'bad/key': 'v'}}, 'extra_specs'),
    ('POST', '', {'extra_specs': {'': 'v'}}, 'extra_specs'),
    ('POST', '', {'extra_specs': {'k' * 256: 'v'}}, 'extra_specs'),
    ('POST', '', {'extra_specs': {'k': 'v' * 256}}, 'extra_specs/k'),
    ('POST', '', {'extra_specs': {'k': ['v']}}, 'extra_specs/k'),
    ('POST', '', {'extra_specs': {'k': 10 ** 300}}, 'extra_specs/k'),
    ('POST', '', {'specs': {'k': 'v'}}, 'specs'),
    ('PUT', '/k', {'k': 'v', 'l': 'w'}, 'body'),
    ('PUT', '/k', {}, 'body'),
    ('PUT', '/k', {'k': None}, 'k'),
])
def test_bad_bodies_are_400_naming_the_field(aio, flavor, method, path,
                                             body, field):
    http = aio.compute_http(*ADMIN)
    resp = http.request(method, '/flavors/%s/os-extra_specs%s'
                        % (flavor.id, path), json=body)
    assert resp.status_code == 400, resp.text
    assert field in resp.json()['badRequest']['message']
    assert _specs(aio, flavor.id) == {}


def test_the_key_of_the_body_must_be_the_key_of_the_url(aio, flavor):
    http = aio.compute_http(*ADMIN)
    resp = http.put('/flavors/%s/os-extra_specs/a' % flavor.id,
                    json={'b': 'v'})
    assert resp.status_code == 400, resp.text
    assert 'mismatch' in resp.json()['badRequest']['message']
    assert _specs(aio, flavor.id) == {}


def test_unknown_flavor_is_404(aio):
    http = aio.compute_http(*ADMIN)
    base = '/flavors/no-such-flavor/os-extra_specs'
    for method, path, body in (('GET', '', None), ('GET', '/k', None),
                               ('POST', '', {'extra_specs': {'k': 'v'}}),
                               ('PUT', '/k', {'k': 'v'}),
                               ('DELETE', '/k', None)):
        resp = http.request(method, base + path, json=body)
        assert resp.status_code == 404, (method, path, resp.text)
        assert 'no-such-flavor' in resp.text


def test_policies(aio, flavor):
    admin = aio.compute_http(*ADMIN)
    base = '/flavors/%s/os-extra_specs' % flavor.id
    admin.post(base, json={'extra_specs': {'k': 'v'}})
    member = aio.compute_http()
    assert member.get(base).json() == {'extra_specs': {'k': 'v'}}
    assert member.get(base + '/k').json() == {'k': 'v'}
    for method, path, body in (('POST', '', {'extra_specs': {'k': 'x'}}),
                               ('PUT', '/k', {'k': 'x'}),
                               ('DELETE', '/k', None)):
        resp = member.request(method, base + path, json=body)
        assert resp.status_code == 403, (method, resp.text)
    # Without the reader role, not even reading.
    other = aio.compute_http(roles=['observer'])
    assert other.get(base).status_code == 403
    assert other.get(base + '/k').status_code == 403
    assert _specs(aio, flavor.id) == {'k': 'v'}


def test_concurrent_writes_all_land(aio, flavor):
    http = aio.compute_http(*ADMIN)
    base = '/flavors/%s/os-extra_specs' % flavor.id
    results = helpers.race(
        [(lambda i=i: http.post(base, json={'extra_specs': {'k%d' % i:
                                                            'v'}}))
         for i in range(4)] +
        [(lambda i=i: http.put(base + '/p%d' % i, json={'p%d' % i: 'w'}))
         for i in range(4)])
    assert [r.status_code for r in results] == [200] * 8
    assert _specs(aio, flavor.id) == dict(
        {'k%d' % i: 'v' for i in range(4)},
        **{'p%d' % i: 'w' for i in range(4)})


def test_the_openstack_cli(aio, flavor, tmp_path):
    osc = cli.CLI(aio, tmp_path, 'admin', 'admin')
    osc.run('flavor', 'set', '--property', 'hw:cpu_policy=dedicated',
            '--property', 'k=v', flavor.name)
    assert _specs(aio, flavor.id) == {'hw:cpu_policy': 'dedicated',
                                      'k': 'v'}
    osc.run('flavor', 'unset', '--property', 'k', flavor.name)
    shown = osc.json('flavor', 'show', flavor.name)
    assert shown['properties'] == {'hw:cpu_policy': 'dedicated'}
