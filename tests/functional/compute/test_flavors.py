"""Flavors over HTTP: create, list, show, conflict, delete, per version."""

import uuid

import openstack
import pytest

from tests.functional import cli

ADMIN = ('admin', 'admin')


def _name():
    return 'flavor-' + uuid.uuid4().hex[:8]


@pytest.fixture
def flavors(aio):
    """Flavor IDs made by a test, deleted after it (if still there)."""
    made = []
    yield made
    admin = aio.compute_http(*ADMIN)
    for flavorid in made:
        admin.delete('/flavors/%s' % flavorid)


def _create(aio, flavors, version=None, **values):
    body = dict({'name': _name(), 'ram': 512, 'vcpus': 1, 'disk': 1},
                **values)
    resp = aio.compute_http(*ADMIN, version=version).post(
        '/flavors', json={'flavor': body})
    assert resp.status_code == 200, resp.text
    flavor = resp.json()['flavor']
    flavors.append(flavor['id'])
    return flavor


def test_story_create_read_conflict_delete(aio, flavors):
    admin = aio.admin()
    name = _name()
    flavor = admin.compute.create_flavor(
        name=name, ram=1024, vcpus=2, disk=10, ephemeral=5, swap=512,
        rxtx_factor=2.0, description='two vCPUs')
    flavors.append(flavor.id)
    assert uuid.UUID(flavor.id)
    assert (flavor.name, flavor.ram, flavor.vcpus, flavor.disk) == (
        name, 1024, 2, 10)
    assert (flavor.ephemeral, flavor.swap, flavor.rxtx_factor) == (
        5, 512, 2.0)
    assert flavor.is_public is True
    assert flavor.is_disabled is False
    assert flavor.description == 'two vCPUs'
    assert flavor.extra_specs == {}

    # Any user reads it: listed, shown, found by name.
    user = aio.sdk()
    assert name in [f.name for f in user.compute.flavors()]
    shown = user.compute.get_flavor(flavor.id)
    assert (shown.name, shown.ram, shown.description) == (
        name, 1024, 'two vCPUs')
    assert user.compute.find_flavor(name).id == flavor.id

    # The name and the ID are taken.
    with pytest.raises(openstack.exceptions.ConflictException):
        admin.compute.create_flavor(name=name, ram=1, vcpus=1, disk=0)
    http = aio.compute_http(*ADMIN)
    resp = http.post('/flavors', json={'flavor': {
        'name': _name(), 'id': flavor.id, 'ram': 1, 'vcpus': 1}})
    assert resp.status_code == 409, resp.text
    assert flavor.id in resp.json()['conflictingRequest']['message']

    resp = http.delete('/flavors/%s' % flavor.id)
    assert resp.status_code == 202, resp.text
    assert resp.content == b''
    with pytest.raises(openstack.exceptions.NotFoundException):
        user.compute.get_flavor(flavor.id)
    assert http.delete('/flavors/%s' % flavor.id).status_code == 404
    assert name not in [f.name for f in user.compute.flavors()]


def test_the_default_flavors_are_listed(aio):
    user = aio.compute_http()
    resp = user.get('/flavors')
    assert resp.status_code == 200, resp.text
    by_id = {f['id']: f for f in resp.json()['flavors']}
    nano = by_id['1']
    assert set(nano) == {'id', 'name', 'links'}
    assert nano['name'] == 'm1.nano'
    self_link, bookmark = nano['links']
    assert self_link['rel'] == 'self'
    assert self_link['href'].endswith('/v2.1/%s/flavors/1' % user.project)
    assert bookmark['rel'] == 'bookmark'
    assert bookmark['href'].endswith('/%s/flavors/1' % user.project)
    assert '/v2.1/' not in bookmark['href']


def test_links_leave_out_the_project_when_the_url_has_none(aio):
    user = aio.compute_http()
    user.base = aio.compute_url
    resp = user.get('/flavors/1')
    assert resp.status_code == 200, resp.text
    href = resp.json()['flavor']['links'][0]['href']
    assert href == aio.compute_url + '/flavors/1'


def test_detail_per_microversion(aio, flavors):
    flavor = _create(aio, flavors, swap=0, rxtx_factor='1.5',
                     id='flv-' + uuid.uuid4().hex[:8])
    fid = flavor['id']
    common = {'id', 'name', 'links', 'ram', 'vcpus', 'disk',
              'OS-FLV-EXT-DATA:ephemeral', 'OS-FLV-DISABLED:disabled',
              'swap', 'rxtx_factor', 'os-flavor-access:is_public'}
    for version, extra, swap in (('2.1', set(), ''),
                                 ('2.54', set(), ''),
                                 ('2.55', {'description'}, ''),
                                 ('2.61', {'description', 'extra_specs'},
                                  ''),
                                 ('2.75', {'description', 'extra_specs'},
                                  0),
                                 ('2.90', {'description', 'extra_specs'},
                                  0)):
        user = aio.compute_http(version=version)
        shown = user.get('/flavors/%s' % fid).json()['flavor']
        assert set(shown) == common | extra, version
        assert shown['swap'] == swap, version
        assert shown['rxtx_factor'] == 1.5
        listed = {f['id']: f for f in
                  user.get('/flavors/detail').json()['flavors']}[fid]
        assert listed == shown, version
        basic = {f['id']: f for f in
                 user.get('/flavors').json()['flavors']}[fid]
        assert set(basic) == {'id', 'name', 'links'} | (
            extra & {'description'}), version


def test_extra_specs_follow_their_policy(aio):
    # A caller without the reader role fails the extra specs rule: no
    # extra_specs, but the flavor itself is readable.
    other = aio.compute_http(roles=['observer'], version='2.61')
    resp = other.get('/flavors/1')
    assert resp.status_code == 200, resp.text
    assert 'extra_specs' not in resp.json()['flavor']
    reader = aio.compute_http(roles=['reader'], version='2.61')
    assert reader.get('/flavors/1').json()['flavor']['extra_specs'] == {}


def test_create_defaults_and_explicit_ids(aio, flavors):
    flavor = _create(aio, flavors, id=None)
    assert uuid.UUID(flavor['id'])
    assert flavor['OS-FLV-EXT-DATA:ephemeral'] == 0
    assert flavor['swap'] == ''
    assert flavor['rxtx_factor'] == 1.0
    assert flavor['os-flavor-access:is_public'] is True
    assert uuid.UUID(_create(aio, flavors, id='auto')['id'])
    number = 900000 + uuid.uuid4().int % 99999
    assert _create(aio, flavors, id=number)['id'] == str(number)
    assert _create(aio, flavors, id='my flavor.1_a-b')['id'] == \
        'my flavor.1_a-b'
    # Sizes as strings, as older clients send them.
    flavor = _create(aio, flavors, ram='256', vcpus='2', disk='0',
                     swap='128')
    assert (flavor['ram'], flavor['vcpus'], flavor['swap']) == (256, 2, 128)


def test_private_flavors_are_for_admins(aio, flavors):
    flavor = _create(aio, flavors, **{'os-flavor-access:is_public': False})
    fid = flavor['id']
    assert flavor['os-flavor-access:is_public'] is False
    admin = aio.compute_http(*ADMIN)
    user = aio.compute_http()

    def ids(http, query=''):
        resp = http.get('/flavors' + query)
        assert resp.status_code == 200, resp.text
        return {f['id'] for f in resp.json()['flavors']}

    assert fid not in ids(admin)
    assert fid in ids(admin, '?is_public=false')
    assert fid in ids(admin, '?is_public=None')
    assert '1' not in ids(admin, '?is_public=false')
    assert {fid, '1'} <= ids(admin, '?is_public=none')
    # Others get the public flavors whatever they ask for (as in Nova).
    for query in ('', '?is_public=false', '?is_public=None'):
        assert fid not in ids(user, query)
        assert '1' in ids(user, query)
    assert admin.get('/flavors/%s' % fid).status_code == 200
    resp = user.get('/flavors/%s' % fid)
    assert resp.status_code == 404, resp.text
    # The SDK asks for is_public=None: admins see private flavors.
    assert fid in [f.id for f in aio.admin().compute.flavors()]
    assert fid not in [f.id for f in aio.sdk().compute.flavors()]


def test_filters_sorting_and_paging(aio, flavors):
    tag = uuid.uuid4().hex[:6]
    made = [_create(aio, flavors, name='%s-%d' % (tag, i),
                    ram=100000 + i, disk=5000 + i,
                    id='%s-%d' % (tag, i))['id'] for i in range(5)]
    user = aio.compute_http()

    def ids(query):
        resp = user.get('/flavors' + query)
        assert resp.status_code == 200, resp.text
        return [f['id'] for f in resp.json()['flavors']], resp.json()

    assert ids('?minRam=100003')[0] == made[3:]
    assert ids('?minDisk=5004')[0] == made[4:]
    assert ids('?minRam=100001&sort_key=memory_mb&sort_dir=desc')[0] == \
        made[:0:-1]
    assert ids('?minRam=100000&sort_key=name')[0] == made
    page, body = ids('?minRam=100000&limit=2')
    assert page == made[:2]
    (link,) = body['flavors_links']
    assert link['rel'] == 'next'
    assert 'marker=%s' % made[1] in link['href']
    assert 'minRam=100000' in link['href']
    page, body = ids('?minRam=100000&limit=2&marker=%s' % made[1])
    assert page == made[2:4]
    page, body = ids('?minRam=100000&limit=2&marker=%s' % made[3])
    assert page == made[4:]
    assert 'flavors_links' not in body
    # The SDK follows the links.
    listed = [f.id for f in aio.sdk().compute.flavors(min_ram=100000,
                                                      limit=2)]
    assert listed == made


@pytest.mark.parametrize('query,field', [
    ('minRam=abc', 'minRam'),
    ('minDisk=1.5', 'minDisk'),
    ('limit=-1', 'limit'),
    ('limit=x', 'limit'),
    ('sort_key=nope', 'sort_key'),
    ('sort_dir=up', 'sort_dir'),
    ('is_public=maybe', 'is_public'),
    ('minRam=99999999999999999999', 'minRam'),
])
def test_bad_queries_name_the_parameter(aio, query, field):
    resp = aio.compute_http().get('/flavors/detail?' + query)
    assert resp.status_code == 400, resp.text
    assert field in resp.json()['badRequest']['message']


def test_unknown_marker_is_bad_request(aio):
    resp = aio.compute_http().get('/flavors?marker=no-such-flavor')
    assert resp.status_code == 400, resp.text
    assert 'no-such-flavor' in resp.json()['badRequest']['message']


def test_unknown_query_parameters_from_2_75(aio):
    for version, status in (('2.74', 200), ('2.75', 400)):
        http = aio.compute_http(version=version)
        for path in ('/flavors', '/flavors/detail'):
            resp = http.get(path + '?foo=bar')
            assert resp.status_code == status, (version, path, resp.text)
    resp = aio.compute_http(version='2.75').get('/flavors?foo=bar')
    assert 'foo' in resp.json()['badRequest']['message']


def test_show_unknown_flavor(aio):
    resp = aio.compute_http().get('/flavors/no-such-flavor')
    assert resp.status_code == 404, resp.text
    assert 'no-such-flavor' in resp.json()['itemNotFound']['message']


def test_members_cannot_manage_flavors(aio):
    user = aio.sdk()
    with pytest.raises(openstack.exceptions.ForbiddenException):
        user.compute.create_flavor(name=_name(), ram=1, vcpus=1, disk=0)
    resp = aio.compute_http().delete('/flavors/1')
    assert resp.status_code == 403, resp.text
    assert aio.compute_http().get('/flavors/1').status_code == 200


def test_description_needs_2_55(aio, flavors):
    body = {'flavor': {'name': _name(), 'ram': 1, 'vcpus': 1,
                       'description': 'x'}}
    resp = aio.compute_http(*ADMIN, version='2.54').post('/flavors',
                                                         json=body)
    assert resp.status_code == 400, resp.text
    assert 'description' in resp.json()['badRequest']['message']
    flavor = _create(aio, flavors, version='2.55', description=None)
    assert flavor['description'] is None


def test_update_the_description(aio, flavors, tmp_path):
    flavor = _create(aio, flavors, version='2.55', description='old')
    admin = aio.admin()
    updated = admin.compute.update_flavor(flavor['id'], description='new')
    assert (updated.id, updated.description) == (flavor['id'], 'new')
    http = aio.compute_http(*ADMIN, version='2.61')
    path = '/flavors/%s' % flavor['id']
    resp = http.put(path, json={'flavor': {'description': None}})
    assert resp.status_code == 200, resp.text
    shown = resp.json()['flavor']
    assert (shown['description'], shown['extra_specs'], shown['ram']) == (
        None, {}, 512)
    osc = cli.CLI(aio, tmp_path, 'admin', 'admin')
    osc.run('--os-compute-api-version', '2.55', 'flavor', 'set',
            '--description', 'from the CLI', flavor['name'])
    assert osc.json('flavor', 'show', flavor['name'])['description'] == (
        'from the CLI')
    # Not before 2.55; not for members; an unknown flavor is 404.
    old = aio.compute_http(*ADMIN, version='2.54')
    assert old.put(path, json={'flavor': {'description': 'x'}}
                   ).status_code == 404
    member = aio.compute_http(version='2.55')
    assert member.put(path, json={'flavor': {'description': 'x'}}
                      ).status_code == 403
    assert http.put('/flavors/nope', json={'flavor': {'description': 'x'}}
                    ).status_code == 404
    assert http.get(path).json()['flavor']['description'] == 'from the CLI'


@pytest.mark.parametrize('body,field', [
    ({'flavor': {}}, 'description'),
    ({'flavor': {'description': 'x', 'name': 'y'}}, 'name'),
    ({'flavor': {'description': 'x' * 65536}}, 'description'),
    ({'flavor': {'description': 'bell\x07'}}, 'description'),
    ({'description': 'x'}, 'flavor'),
])
def test_bad_updates_name_the_field(aio, body, field):
    resp = aio.compute_http(*ADMIN, version='2.55').put('/flavors/1',
                                                        json=body)
    assert resp.status_code == 400, resp.text
    assert field in resp.json()['badRequest']['message']


@pytest.mark.parametrize('values,field', [
    ({'name': ''}, 'name'),
    ({'name': ' padded'}, 'name'),
    ({'name': 'x' * 256}, 'name'),
    ({'name': 'tab\there'}, 'name'),
    ({'ram': 0}, 'ram'),
    ({'ram': -1}, 'ram'),
    ({'ram': 1.5}, 'ram'),
    ({'ram': 'lots'}, 'ram'),
    ({'ram': ''}, 'ram'),
    ({'ram': 2 ** 31}, 'ram'),
    ({'ram': '99999999999999999999999'}, 'ram'),
    ({'vcpus': 0}, 'vcpus'),
    ({'vcpus': None}, 'vcpus'),
    ({'disk': -1}, 'disk'),
    ({'swap': -1}, 'swap'),
    ({'OS-FLV-EXT-DATA:ephemeral': 'a'}, 'OS-FLV-EXT-DATA:ephemeral'),
    ({'rxtx_factor': 0}, 'rxtx_factor'),
    ({'rxtx_factor': '0.0'}, 'rxtx_factor'),
    ({'rxtx_factor': -1.0}, 'rxtx_factor'),
    ({'rxtx_factor': 1e39}, 'rxtx_factor'),
    ({'rxtx_factor': 'fast'}, 'rxtx_factor'),
    ({'os-flavor-access:is_public': 'perhaps'},
     'os-flavor-access:is_public'),
    ({'id': ''}, 'id'),
    ({'id': 'a/b'}, 'id'),
    ({'id': ' lead'}, 'id'),
    ({'id': 'x' * 256}, 'id'),
    ({'id': 10 ** 300}, 'id'),
    ({'id': True}, 'id'),
    ({'flavor_id': '1'}, 'flavor_id'),
])
def test_bad_bodies_name_the_field(aio, values, field):
    body = dict({'name': _name(), 'ram': 64, 'vcpus': 1}, **values)
    resp = aio.compute_http(*ADMIN, version='2.55').post(
        '/flavors', json={'flavor': body})
    assert resp.status_code == 400, resp.text
    assert field in resp.json()['badRequest']['message']


@pytest.mark.parametrize('body', [
    {}, {'flavor': None}, {'flavor': []}, [], 'flavor',
    {'flavor': {'name': 'x', 'ram': 1}},
    {'flavor': {'name': 'x', 'ram': 1, 'vcpus': 1}, 'extra': 1},
])
def test_malformed_bodies(aio, body):
    resp = aio.compute_http(*ADMIN).post('/flavors', json=body)
    assert resp.status_code == 400, resp.text


def test_non_finite_numbers_are_refused(aio):
    http = aio.compute_http(*ADMIN)
    for raw in ('NaN', 'Infinity', '-Infinity'):
        data = ('{"flavor": {"name": "%s", "ram": 1, "vcpus": 1, '
                '"rxtx_factor": %s}}' % (_name(), raw))
        resp = http.post('/flavors', data=data,
                         headers={'Content-Type': 'application/json'})
        assert resp.status_code == 400, (raw, resp.text)
