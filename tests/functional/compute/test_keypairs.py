"""Key pairs over HTTP (/os-keypairs): generate, import, list, show,
delete, per microversion; whose they are; the key_pairs quota and its
race; the openstack CLI."""

import base64
import hashlib
import uuid

from cryptography.hazmat.primitives.asymmetric import ed25519
from cryptography.hazmat.primitives import serialization
import openstack
from oslo_config import cfg
import pytest

from tests.functional import cli
from tests.functional.compute import server_helpers as sh
from tests.functional import helpers

CONF = cfg.CONF


def _name():
    return 'kp-' + uuid.uuid4().hex[:8]


def _public_key():
    key = ed25519.Ed25519PrivateKey.generate()
    return key.public_key().public_bytes(
        serialization.Encoding.OpenSSH,
        serialization.PublicFormat.OpenSSH).decode() + ' me@example.org'


def _md5_fingerprint(public_key):
    digest = hashlib.md5(base64.b64decode(public_key.split()[1])).hexdigest()
    return ':'.join(digest[i:i + 2] for i in range(0, 32, 2))


def _message(resp):
    return next(iter(resp.json().values()))['message']


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


@pytest.fixture
def key_pairs_quota():
    """Set the key_pairs quota for one test."""
    def set_limit(limit):
        CONF.set_override('key_pairs', limit, group='quota')
    yield set_limit
    CONF.clear_override('key_pairs', group='quota')


def test_story_generate_read_conflict_delete(user):
    name = _name()
    made = user.compute.create_keypair(name=name)
    # The private key is given once, with the public key it pairs with.
    assert made.private_key.startswith('-----BEGIN RSA PRIVATE KEY-----')
    private = serialization.load_pem_private_key(
        made.private_key.encode(), None)
    assert private.public_key().public_bytes(
        serialization.Encoding.OpenSSH,
        serialization.PublicFormat.OpenSSH).decode() == ' '.join(
            made.public_key.split()[:2])
    assert made.fingerprint == _md5_fingerprint(made.public_key)
    assert (made.type, made.user_id) == ('ssh', user.test_user)

    shown = user.compute.get_keypair(name)
    assert (shown.name, shown.public_key, shown.fingerprint) == (
        name, made.public_key, made.fingerprint)
    assert shown.private_key is None
    assert [k.name for k in user.compute.keypairs()] == [name]

    with pytest.raises(openstack.exceptions.ConflictException) as exc:
        user.compute.create_keypair(name=name, public_key=_public_key())
    assert name in str(exc.value)

    user.compute.delete_keypair(name)
    with pytest.raises(openstack.exceptions.NotFoundException):
        user.compute.get_keypair(name)
    assert list(user.compute.keypairs()) == []
    with pytest.raises(openstack.exceptions.NotFoundException):
        user.compute.delete_keypair(name, ignore_missing=False)


def test_import_ssh_and_x509(aio, user):
    public_key = _public_key()
    made = user.compute.create_keypair(name=_name(), public_key=public_key)
    assert made.private_key is None
    assert made.public_key == public_key
    assert made.fingerprint == _md5_fingerprint(public_key)

    # An x509 key pair generated (before 2.92), then its certificate
    # imported by another user: the same SHA-1 fingerprint.
    http = aio.compute_http(version='2.91')
    resp = http.post('/os-keypairs', json={'keypair': {
        'name': _name(), 'type': 'x509'}})
    assert resp.status_code == 201, resp.text
    generated = resp.json()['keypair']
    assert generated['type'] == 'x509'
    assert base64.b64decode(generated['private_key'])  # PKCS#12
    assert generated['public_key'].startswith('-----BEGIN CERTIFICATE')
    assert len(generated['fingerprint'].split(':')) == 20
    resp = aio.compute_http(version='2.92').post('/os-keypairs', json={
        'keypair': {'name': _name(), 'type': 'x509',
                    'public_key': generated['public_key']}})
    assert resp.status_code == 201, resp.text
    assert resp.json()['keypair']['fingerprint'] == generated['fingerprint']


def test_responses_per_microversion(aio):
    http = aio.compute_http(version='2.1')
    name = _name()
    resp = http.post('/os-keypairs', json={'keypair': {'name': name}})
    assert resp.status_code == 200, resp.text
    body = resp.json()['keypair']
    assert set(body) == {'name', 'public_key', 'fingerprint', 'user_id',
                         'private_key'}
    shown = http.get('/os-keypairs/' + name).json()['keypair']
    assert set(shown) == {'name', 'public_key', 'fingerprint', 'user_id',
                          'id', 'created_at', 'deleted', 'deleted_at',
                          'updated_at'}
    assert shown['deleted'] is False
    assert http.get('/os-keypairs').json() == {'keypairs': [{'keypair': {
        'name': name, 'public_key': body['public_key'],
        'fingerprint': body['fingerprint']}}]}
    resp = http.delete('/os-keypairs/' + name)
    assert (resp.status_code, resp.content) == (202, b'')

    http.session.headers['OpenStack-API-Version'] = 'compute 2.2'
    resp = http.post('/os-keypairs', json={'keypair': {'name': name}})
    assert resp.status_code == 201, resp.text
    assert resp.json()['keypair']['type'] == 'ssh'
    assert http.get('/os-keypairs').json()['keypairs'][0]['keypair'][
        'type'] == 'ssh'
    assert http.delete('/os-keypairs/' + name).status_code == 204

    # From 2.92 nothing is generated.
    http.session.headers['OpenStack-API-Version'] = 'compute 2.92'
    resp = http.post('/os-keypairs', json={'keypair': {'name': name}})
    assert resp.status_code == 400, resp.text
    assert 'public_key' in _message(resp)
    resp = http.post('/os-keypairs', json={'keypair': {
        'name': 'me@example.org', 'public_key': _public_key()}})
    assert resp.status_code == 201, resp.text
    assert 'private_key' not in resp.json()['keypair']


@pytest.mark.parametrize('version,keypair,field', [
    ('2.1', {'name': ''}, 'keypair/name'),
    ('2.1', {'name': ' lead'}, 'keypair/name'),
    ('2.1', {'name': 'trail '}, 'keypair/name'),
    ('2.1', {'name': 'x' * 256}, 'keypair/name'),
    ('2.1', {'name': 'a/b'}, 'keypair/name'),
    ('2.91', {'name': 'me@example.org'}, 'keypair/name'),
    ('2.92', {'name': 'a\u00e9', 'public_key': 'k'}, 'keypair/name'),
    ('2.1', {'name': 7}, 'keypair/name'),
    ('2.1', {'name': 'k', 'type': 'ssh'}, 'type'),
    ('2.2', {'name': 'k', 'type': 'rsa'}, 'keypair/type'),
    ('2.2', {'name': 'k', 'user_id': 'u'}, 'user_id'),
    ('2.10', {'name': 'k', 'public_key': None}, 'keypair/public_key'),
    ('2.10', {'name': 'k', 'public_key': ''}, 'keypair/public_key'),
    ('2.10', {'name': 'k', 'extra': 1}, 'extra'),
    ('2.10', {}, 'name'),
])
def test_bad_bodies_are_400_naming_the_field(aio, version, keypair, field):
    http = aio.compute_http(version=version)
    resp = http.post('/os-keypairs', json={'keypair': keypair})
    assert resp.status_code == 400, resp.text
    assert field in _message(resp), resp.text
    for body in ({}, {'keypair': None}, {'keypair': []}, [], 'x'):
        resp = http.post('/os-keypairs', json=body)
        assert resp.status_code == 400, (body, resp.text)


@pytest.mark.parametrize('public_key', [
    'k', 'ssh-rsa', 'ssh-rsa AAAA', 'ssh-rsa !!!!', 'ssh-ed25519 '
    + base64.b64encode(b'garbage').decode(), '\u00e9\u00e9 \u00e9',
    '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n'])
def test_unreadable_public_keys_are_400(aio, public_key):
    http = aio.compute_http(version='2.2')
    for key_type in ('ssh', 'x509'):
        resp = http.post('/os-keypairs', json={'keypair': {
            'name': _name(), 'type': key_type, 'public_key': public_key}})
        assert resp.status_code == 400, resp.text
        assert resp.json()['badRequest']['error_code'] == (
            'compute.keypair.invalid')
    assert http.get('/os-keypairs').json() == {'keypairs': []}


def test_key_pairs_are_per_user(aio):
    project = 'project-' + uuid.uuid4().hex[:8]
    alice = aio.sdk(project=project)
    bob = aio.sdk(project=project)
    name = _name()
    alice.compute.create_keypair(name=name, public_key=_public_key())
    # Bob, in the same project, neither sees it nor is stopped by it.
    assert list(bob.compute.keypairs()) == []
    with pytest.raises(openstack.exceptions.NotFoundException):
        bob.compute.get_keypair(name)
    bob.compute.create_keypair(name=name, public_key=_public_key())
    bob.compute.delete_keypair(name)
    assert [k.name for k in alice.compute.keypairs()] == [name]


def test_administrators_handle_other_users_key_pairs(aio):
    owner = aio.compute_http(version='2.10')
    admin = aio.compute_http('admin', 'admin', version='2.10')
    name = _name()
    resp = admin.post('/os-keypairs', json={'keypair': {
        'name': name, 'public_key': _public_key(), 'user_id': owner.user}})
    assert resp.status_code == 201, resp.text
    assert resp.json()['keypair']['user_id'] == owner.user
    assert [k['keypair']['name'] for k in
            owner.get('/os-keypairs').json()['keypairs']] == [name]
    query = '?user_id=' + owner.user
    assert [k['keypair']['name'] for k in admin.get(
        '/os-keypairs' + query).json()['keypairs']] == [name]
    assert admin.get('/os-keypairs').json()['keypairs'] == []
    assert admin.get('/os-keypairs/%s%s' % (name, query)).json()[
        'keypair']['user_id'] == owner.user

    # Another user may not, by the body or the query.
    other = aio.compute_http(project=owner.project, version='2.10')
    resp = other.post('/os-keypairs', json={'keypair': {
        'name': _name(), 'public_key': _public_key(),
        'user_id': owner.user}})
    assert resp.status_code == 403, resp.text
    for method in ('get', 'delete'):
        resp = getattr(other, method)('/os-keypairs/%s%s' % (name, query))
        assert resp.status_code == 403, resp.text
    assert other.get('/os-keypairs' + query).status_code == 403
    # Before 2.10 the query is ignored: the caller's own key pairs.
    old = aio.compute_http('admin', 'admin', version='2.9')
    assert old.get('/os-keypairs/%s%s' % (name, query)).status_code == 404
    # From 2.75 unknown query parameters are refused.
    strict = aio.compute_http(version='2.75')
    assert strict.get('/os-keypairs?bogus=1').status_code == 400
    assert strict.get('/os-keypairs/x?bogus=1').status_code == 400

    resp = admin.delete('/os-keypairs/%s%s' % (name, query))
    assert resp.status_code == 204, resp.text
    assert owner.get('/os-keypairs').json()['keypairs'] == []


def test_paging(aio):
    http = aio.compute_http(version='2.35')
    names = [_name() for _ in range(5)]
    for name in names:
        resp = http.post('/os-keypairs', json={'keypair': {
            'name': name, 'public_key': _public_key()}})
        assert resp.status_code == 201, resp.text
    body = http.get('/os-keypairs?limit=2').json()
    assert [k['keypair']['name'] for k in body['keypairs']] == names[:2]
    assert 'marker=' + names[1] in body['keypairs_links'][0]['href']
    body = http.get('/os-keypairs?limit=2&marker=' + names[3]).json()
    assert [k['keypair']['name'] for k in body['keypairs']] == names[4:]
    assert 'keypairs_links' not in body
    resp = http.get('/os-keypairs?marker=nosuch')
    assert resp.status_code == 400, resp.text
    assert 'nosuch' in _message(resp)
    for query in ('limit=-1', 'limit=x', 'limit=1&limit=2'):
        assert http.get('/os-keypairs?' + query).status_code == 400, query
    # Before 2.35 limit and marker are ignored.
    http.session.headers['OpenStack-API-Version'] = 'compute 2.34'
    body = http.get('/os-keypairs?limit=1&marker=nosuch').json()
    assert len(body['keypairs']) == 5 and 'keypairs_links' not in body


def test_the_key_pairs_quota(aio, key_pairs_quota):
    key_pairs_quota(2)
    user = aio.sdk()
    for name in ('one', 'two'):
        user.compute.create_keypair(name=name, public_key=_public_key())
    with pytest.raises(openstack.exceptions.ForbiddenException) as exc:
        user.compute.create_keypair(name='three', public_key=_public_key())
    assert 'too many key pairs' in str(exc.value)
    # A generated one is counted as well; a deleted one no longer is.
    with pytest.raises(openstack.exceptions.ForbiddenException):
        user.compute.create_keypair(name='three')
    user.compute.delete_keypair('one')
    user.compute.create_keypair(name='three')
    # A conflict counts nothing.
    user.compute.delete_keypair('three')
    with pytest.raises(openstack.exceptions.ConflictException):
        user.compute.create_keypair(name='two', public_key=_public_key())
    user.compute.create_keypair(name='four', public_key=_public_key())
    assert sorted(k.name for k in user.compute.keypairs()) == [
        'four', 'two']
    key_pairs_quota(-1)
    user.compute.create_keypair(name='five', public_key=_public_key())


def test_creates_racing_for_the_last_key_pairs_one_wins(aio,
                                                        key_pairs_quota):
    key_pairs_quota(3)
    http = aio.compute_http(version='2.2')
    resp = http.post('/os-keypairs', json={'keypair': {
        'name': 'first', 'public_key': _public_key()}})
    assert resp.status_code == 201, resp.text

    def creator(i):
        return lambda: http.post('/os-keypairs', json={'keypair': {
            'name': 'racer-%d' % i, 'public_key': _public_key()}})
    results = helpers.race([creator(i) for i in range(6)])
    codes = sorted(r.status_code for r in results)
    assert codes == [201, 201, 403, 403, 403, 403], [r.text for r in results]
    assert len(http.get('/os-keypairs').json()['keypairs']) == 3

    # Two creates of one name: one wins, the other is a conflict.
    key_pairs_quota(-1)
    results = helpers.race([lambda: http.post('/os-keypairs', json={
        'keypair': {'name': 'same', 'public_key': _public_key()}})] * 2)
    assert sorted(r.status_code for r in results) == [201, 409]


def test_the_openstack_cli(aio, tmp_path):
    user = aio.sdk()
    openstack = cli.CLI(aio, tmp_path, user.test_user, user.test_project)
    key_file = tmp_path / 'id.pub'
    public_key = _public_key()
    key_file.write_text(public_key + '\n')
    made = openstack.json('keypair', 'create', '--public-key',
                          str(key_file), 'imported')
    assert made['fingerprint'] == _md5_fingerprint(public_key)
    # The CLI makes the key itself and imports its public key (which is
    # what 2.92 needs); it prints the private key.
    private = openstack.run('keypair', 'create', 'generated')
    key = serialization.load_ssh_private_key(private.strip().encode(), None)
    shown = openstack.json('keypair', 'show', 'generated')
    assert shown['fingerprint'] == _md5_fingerprint(
        key.public_key().public_bytes(
            serialization.Encoding.OpenSSH,
            serialization.PublicFormat.OpenSSH).decode())
    listed = openstack.json('keypair', 'list')
    assert sorted(k['Name'] for k in listed) == ['generated', 'imported']
    shown = openstack.json('keypair', 'show', 'imported')
    assert (shown['name'], shown['user_id']) == ('imported', user.test_user)
    assert openstack.run('keypair', 'show', '--public-key',
                         'imported').strip() == public_key
    openstack.run('keypair', 'delete', 'imported', 'generated')
    assert openstack.json('keypair', 'list') == []


def test_a_server_keeps_the_key_pair_it_was_created_with(cloud):
    user = cloud.project()
    public_key = _public_key()
    user.conn.compute.create_keypair(name='mine', public_key=public_key)
    server = user.boot(key_name='mine')
    assert server.key_name == 'mine'
    assert user.server(server.id, version='2.1')['key_name'] == 'mine'
    detailed = user.compute().get('/servers/detail').json()['servers']
    assert [s['key_name'] for s in detailed] == ['mine']
    # Deleting the key pair leaves the server's record of it.
    user.conn.compute.delete_keypair('mine')
    assert user.server(server.id)['key_name'] == 'mine'
    assert user.boot().key_name is None


def test_a_key_name_the_caller_does_not_have_is_400(cloud):
    user = cloud.project()
    other = cloud.project()
    other.conn.compute.create_keypair(name='theirs',
                                      public_key=_public_key())
    volume = user.volume()
    http = user.compute()
    for key_name in ('theirs', 'nosuch'):
        resp = http.post('/servers', json={'server': {
            'name': 'vm', 'flavorRef': '1', 'key_name': key_name,
            'block_device_mapping_v2': [{
                'source_type': 'volume', 'destination_type': 'volume',
                'uuid': volume['id'], 'boot_index': 0}]}})
        assert resp.status_code == 400, resp.text
        assert 'Invalid key_name provided' in _message(resp)
        assert key_name in _message(resp)
    for key_name in ('', ' lead', 'x' * 256, 7, None):
        resp = http.post('/servers', json={'server': {
            'name': 'vm', 'flavorRef': '1', 'key_name': key_name}})
        assert resp.status_code == 400, resp.text
        assert 'key_name' in _message(resp)
    user.assert_free(volume['id'])
    assert http.get('/servers').json()['servers'] == []
