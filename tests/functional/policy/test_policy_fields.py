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
