"""What only some personas see in the answers they may have, and what
the service role may do across projects (and a service token alone may
not): the parts of the policy matrix that are no status code."""

import uuid

import pytest

from tests.functional.policy import world as world_mod

ADMINS = ('aA', 'aB')
READERS_OF_A = ('aA', 'mA', 'rA', 'aB')


def _get(world, column, path, key, api='volume'):
    resp = world.http(column, api).get(path)
    assert resp.status_code == 200, (column, resp.text)
    return resp.json()[key]


@pytest.mark.parametrize('column', READERS_OF_A)
def test_admin_only_volume_fields(world, column):
    volume = _get(world, column, '/volumes/%s' % world.ids['attached_id'],
                  'volume')
    (attachment,) = volume['attachments']
    admin = column in ADMINS
    assert attachment['host_name'] == ('pm-host' if admin else None)
    assert ('os-vol-host-attr:host' in volume) == admin
    listed = [v for v in _get(world, column, '/volumes/detail', 'volumes')
              if v['id'] == world.ids['attached_id']]
    if column in ('aA', 'mA', 'rA'):
        assert listed[0]['attachments'][0]['host_name'] == (
            'pm-host' if admin else None)
    shown = _get(world, column, '/attachments/%s'
                 % world.ids['attachment_id'], 'attachment')
    # Readers see no connection info (volume:attachment_connection_info).
    assert ('connection_info' in shown) == (column != 'rA')


@pytest.mark.parametrize('column', READERS_OF_A)
def test_admin_only_server_fields(world, column):
    server_id, admin = world.ids['server_id'], column in ADMINS
    server = _get(world, column, '/servers/%s' % server_id, 'server',
                  'compute')
    assert ('OS-EXT-SRV-ATTR:host' in server) == admin
    action = _get(world, column, '/servers/%s/os-instance-actions/%s'
                  % (server_id, world.ids['request_id']), 'instanceAction',
                  'compute')
    (event,) = action['events']
    for key in ('details', 'traceback', 'host'):
        assert (key in event) == admin, (key, event)
    share = _get(world, column, '/servers/%s/shares/%s'
                 % (server_id, world.ids['share_id']), 'share', 'compute')
    for key in ('export_location', 'uuid'):
        assert (key in share) == admin, (key, share)


def test_host_name_for_the_service_role(aio, world):
    """A volume of a project whose user has the service role: it sees
    the host_name, a member of the project without the role does not."""
    project = 'pm-s-' + uuid.uuid4().hex[:8]
    service = aio.http('svc', project, ['member', 'service'],
                       world_mod.VOLUME_VERSION)
    member = aio.http('mem', project, ['member'], world_mod.VOLUME_VERSION)
    world.quota(project)
    volume_id = world_mod.helpers.create_volume(
        member, size=1, wait_for=world.wait)['id']
    world.created.append(('volume', 'volume', volume_id))
    resp = member.post('/attachments', json={'attachment': {
        'volume_uuid': volume_id, 'instance_uuid': str(uuid.uuid4()),
        'connector': world_mod.CONNECTOR}})
    assert resp.status_code == 200, resp.text
    resp = member.post('/attachments/%s/action'
                       % resp.json()['attachment']['id'],
                       json={'os-complete': None})
    assert resp.status_code == 204, resp.text
    for http, expected in ((service, 'pm-host'), (member, None)):
        volume = http.get('/volumes/%s' % volume_id).json()['volume']
        assert volume['attachments'][0]['host_name'] == expected


def _completion(http, volume_id, headers=None):
    return http.post('/volumes/%s/action' % volume_id, headers=headers,
                     json={'os-extend_volume_completion': {'error': False}})


def _event(http, server_id):
    return http.post('/os-server-external-events', json={'events': [
        {'name': 'network-changed', 'server_uuid': server_id}]})


def test_the_service_role_across_projects(world):
    """Exactly two operations reach other projects' resources with the
    service role alone: the completion of an extend and external
    events. Every other call on project A's resources is 404 for it
    (matrix.txt, column svc)."""
    svc = world.http('svc')
    # The completion reaches A's volume (400: it is not being extended).
    resp = _completion(svc, world.ids['volume_id'])
    assert resp.status_code == 400, resp.text
    # The event reaches A's server (422: it has no host), an unknown
    # server is 404.
    resp = _event(world.http('svc', 'compute'), world.ids['server_id'])
    assert resp.status_code == 207, resp.text
    assert resp.json()['events'][0]['code'] == 422
    resp = _event(world.http('svc', 'compute'), str(uuid.uuid4()))
    assert resp.json()['events'][0]['code'] == 404


def test_a_service_token_alone_grants_nothing(aio, world):
    """A member's token with a service token of the service role beside
    it (X-Service-Token, as keystonemiddleware reports it in
    X-Service-Roles) is the member, no more."""
    token = {'X-Service-Token': 'svc:%s:service' % world.projects['S']}
    for column, completion in (('mB', 404), ('mA', 403)):
        volume, compute = world.http(column), world.http(column, 'compute')
        resp = _completion(volume, world.ids['volume_id'], headers=token)
        assert resp.status_code == completion, resp.text
        resp = compute.post('/os-server-external-events', headers=token,
                            json={'events': [{
                                'name': 'network-changed',
                                'server_uuid': world.ids['server_id']}]})
        assert resp.status_code == 403, resp.text
    resp = world.http('mB').get('/volumes/%s' % world.ids['volume_id'],
                                headers=token)
    assert resp.status_code == 404, resp.text


@pytest.mark.parametrize('column', ('aA', 'mA', 'aB'))
def test_key_pair_fields(world, column):
    """Project A's member's key pair, to whom may see it (its owner, any
    administrator with user_id): its user_id when shown, not listed; no
    private key ever after its creation."""
    query = '?user_id=%s' % world.ids['keypair_user_id']
    shown = _get(world, column, '/os-keypairs/%s%s' % (
        world.ids['keypair_name'], query), 'keypair', 'compute')
    assert shown['user_id'] == world.ids['keypair_user_id']
    assert shown['public_key'] == world_mod.PUBLIC_KEY
    assert 'private_key' not in shown
    listed = [k['keypair'] for k in _get(world, column, '/os-keypairs'
                                         + query, 'keypairs', 'compute')]
    assert world.ids['keypair_name'] in [k['name'] for k in listed]
    for keypair in listed:
        assert not {'user_id', 'private_key'} & set(keypair), keypair


def test_a_generated_private_key_is_given_once(aio, world):
    """Before 2.92 a key pair may be generated: its private key is in the
    answer to its creator, and in no later answer (its owner's, an
    administrator's)."""
    user = world.ids['keypair_user_id']
    member = aio.compute_http(user, world.projects['A'], ['member'], '2.91')
    admin = aio.compute_http(world.user('aA'), world.projects['A'],
                             ['admin'], '2.91')
    name = 'pm-gen-%s' % uuid.uuid4().hex[:8]
    resp = member.post('/os-keypairs', json={'keypair': {'name': name}})
    assert resp.status_code == 201, resp.text
    assert resp.json()['keypair']['private_key'].startswith('-----BEGIN')
    assert resp.json()['keypair']['user_id'] == user
    for http, query in ((member, ''), (admin, '?user_id=' + user)):
        for path, key in (('/os-keypairs/' + name, 'keypair'),
                          ('/os-keypairs', 'keypairs')):
            resp = http.get(path + query)
            assert resp.status_code == 200, resp.text
            assert 'private_key' not in resp.text
            assert resp.json()[key]


def test_a_key_pair_for_another_user(world):
    """A key pair for another user (``user_id`` in the body, 2.10): an
    administrator's (for a user of any project), nobody else's."""
    owner = world.user('rA')

    def create(column):
        return world.http(column, 'compute').post('/os-keypairs', json={
            'keypair': {'name': 'pm-for-%s' % uuid.uuid4().hex[:8],
                        'public_key': world_mod.PUBLIC_KEY,
                        'user_id': owner}})
    for column in ('mA', 'mB', 'svc'):
        resp = create(column)
        assert resp.status_code == 403, (column, resp.text)
    for column in ('aA', 'aB'):
        resp = create(column)
        assert resp.status_code == 201, (column, resp.text)
        made = resp.json()['keypair']
        assert made['user_id'] == owner
        owned = world.http('rA', 'compute').get('/os-keypairs/%s'
                                                % made['name'])
        assert owned.status_code == 200, owned.text
