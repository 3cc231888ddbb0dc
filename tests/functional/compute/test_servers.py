"""Servers over HTTP: boot from a volume, show, list and update them (their
ends: test_server_ends.py).

Each test is one story against the real aio: the compute API, a
tether-compute on qemu:///system, and the volume API it calls. What a
server holds is checked where it lives: the volume API's attachment
records, QEMU's lock on the volume file, the guest in libvirt.
"""

import uuid
from urllib import parse

from oslo_config import cfg
import pytest

from tests.functional.compute import server_helpers as sh

CONF = cfg.CONF


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


# Boot from a volume ----------------------------------------------------------

def test_boot_from_volume_holds_the_volume(cloud):
    user = cloud.project()
    volume = user.volume()
    server = user.boot(volume)

    assert (server.status, server.vm_state, server.power_state,
            server.task_state) == ('ACTIVE', 'active', 1, None)
    assert [v['id'] for v in server.attached_volumes] == [volume['id']]
    # The volume API: in-use, one attachment, to this server.
    shown = user.show_volume(volume['id'])
    assert shown['status'] == 'in-use'
    assert [a['server_id'] for a in shown['attachments']] == [server.id]
    records = user.attachments(volume['id'])
    assert [(r['instance'], r['status']) for r in records] == [
        (server.id, 'attached')]
    assert records[0]['id'] == shown['attachments'][0]['attachment_id']
    # QEMU holds the file: the volume service could not write it.
    assert sh.locked(user.aio.volume_path(volume['id']))
    assert sh.domain_state(server.id) == 'running'
    # The server's own view of its volume.
    resp = user.compute(sh.LATEST).get(
        '/servers/%s/os-volume_attachments' % server.id)
    assert resp.status_code == 200, resp.text
    [attachment] = resp.json()['volumeAttachments']
    assert attachment['volumeId'] == volume['id']
    assert attachment['device'] == '/dev/sda'
    assert attachment['attachment_id'] == records[0]['id']
    # What an admin sees of where it runs.
    admin_view = cloud.admin().server(server.id)
    assert admin_view['OS-EXT-SRV-ATTR:instance_name'] == sh.domain(
        server.id)
    assert admin_view['OS-EXT-SRV-ATTR:host']
    assert admin_view['OS-EXT-SRV-ATTR:root_device_name'] == '/dev/sda'
    assert admin_view['host_status'] == 'UP'


def test_create_answers_202_with_a_location(cloud):
    user = cloud.project()
    volume = user.volume()
    resp = user.compute(sh.LATEST).post('/servers',
                                        json=sh.server_body(volume['id']))
    assert resp.status_code == 202, resp.text
    body = resp.json()['server']
    user.track(body['id'])
    assert set(body) == {'id', 'links', 'OS-DCF:diskConfig', 'adminPass'}
    # Made up, as Nova makes it up when the request gave none.
    assert len(body['adminPass']) == 12
    assert not set(body['adminPass']) & set('0O1lI')
    assert resp.headers['Location'] == body['links'][0]['href']
    assert body['links'][0]['href'].endswith(
        '/v2.1/%s/servers/%s' % (user.project, body['id']))
    # The request id of the create is the request id of its action.
    request_id = resp.headers['X-OpenStack-Request-ID']
    user.wait_server(body['id'])
    action = user.wait_events(body['id'], request_id, [
        ('compute__do_build_and_run_instance', 'Success')])
    assert (action['action'], action['request_id'], action['user_id'],
            action['project_id']) == ('create', request_id, user.user,
                                      user.project)


def test_create_answers_with_the_admin_password_it_was_given(cloud):
    user = cloud.project()
    body = sh.server_body(user.volume()['id'])
    body['server']['adminPass'] = 'Given-pass-1'
    resp = user.compute(sh.LATEST).post('/servers', json=body)
    assert resp.status_code == 202, resp.text
    user.track(resp.json()['server']['id'])
    assert resp.json()['server']['adminPass'] == 'Given-pass-1'
    # Answered once, shown never again.
    shown = user.compute(sh.LATEST).get(
        '/servers/%s' % resp.json()['server']['id']).json()['server']
    assert 'adminPass' not in shown


def test_no_admin_password_while_the_option_is_off(cloud):
    user = cloud.project()
    CONF.set_override('enable_instance_password', False)
    try:
        body = sh.server_body(user.volume()['id'])
        body['server']['adminPass'] = 'Given-pass-1'
        resp = user.compute(sh.LATEST).post('/servers', json=body)
    finally:
        CONF.clear_override('enable_instance_password')
    assert resp.status_code == 202, resp.text
    user.track(resp.json()['server']['id'])
    assert 'adminPass' not in resp.json()['server']


def test_an_admin_password_that_is_not_a_string_is_refused(cloud):
    user = cloud.project()
    body = sh.server_body(user.volume()['id'])
    body['server']['adminPass'] = 12345
    resp = user.compute(sh.LATEST).post('/servers', json=body)
    assert resp.status_code == 400, resp.text
    assert 'adminPass' in resp.json()['badRequest']['message']


# Shapes per microversion -----------------------------------------------------

DETAIL_2_1 = {
    'id', 'name', 'links', 'status', 'tenant_id', 'user_id', 'metadata',
    'hostId', 'image', 'flavor', 'created', 'updated', 'addresses',
    'accessIPv4', 'accessIPv6', 'OS-DCF:diskConfig',
    'OS-EXT-AZ:availability_zone', 'config_drive', 'key_name',
    'OS-SRV-USG:launched_at', 'OS-SRV-USG:terminated_at',
    'OS-EXT-STS:task_state', 'OS-EXT-STS:vm_state',
    'OS-EXT-STS:power_state', 'os-extended-volumes:volumes_attached',
    'progress'}
# 2.9 locked, 2.19 description, 2.26 tags.
DETAIL_2_47 = DETAIL_2_1 | {'locked', 'description', 'tags'}
# 2.63 trusted_image_certificates, 2.73 locked_reason, 2.90 the hostname
# for everyone.
DETAIL_2_90 = DETAIL_2_47 | {'trusted_image_certificates', 'locked_reason',
                             'OS-EXT-SRV-ATTR:hostname'}
ADMIN_2_90 = DETAIL_2_90 | {
    'OS-EXT-SRV-ATTR:host', 'OS-EXT-SRV-ATTR:instance_name',
    'OS-EXT-SRV-ATTR:hypervisor_hostname',
    'OS-EXT-SRV-ATTR:reservation_id', 'OS-EXT-SRV-ATTR:launch_index',
    'OS-EXT-SRV-ATTR:kernel_id', 'OS-EXT-SRV-ATTR:ramdisk_id',
    'OS-EXT-SRV-ATTR:root_device_name', 'OS-EXT-SRV-ATTR:user_data',
    'host_status'}
FLAVOR_2_47 = {'vcpus': 1, 'ram': 64, 'disk': 1, 'ephemeral': 0, 'swap': 0,
               'original_name': 'm1.nano', 'extra_specs': {}}


def _get(http, path):
    resp = http.get(path)
    assert resp.status_code == 200, resp.text
    return resp


def test_shapes_at_2_1_2_47_and_2_90(cloud):
    user = cloud.project()
    volume = user.volume()
    server = user.boot(volume, name='shape')
    path = '/servers/%s' % server.id

    old = user.compute('2.1')
    resp = _get(old, path)
    assert 'OpenStack-API-Version' not in resp.headers or \
        resp.headers['OpenStack-API-Version'] == 'compute 2.1'
    shown = resp.json()['server']
    assert set(shown) == DETAIL_2_1
    assert shown['flavor']['id'] == '1'
    assert shown['flavor']['links'][0]['rel'] == 'bookmark'
    assert shown['os-extended-volumes:volumes_attached'] == [
        {'id': volume['id']}]
    assert (shown['status'], shown['OS-EXT-STS:power_state'],
            shown['progress'], shown['image']) == ('ACTIVE', 1, 100, '')
    assert shown['tenant_id'] == user.project
    assert shown['user_id'] == user.user
    [listed] = _get(old, '/servers').json()['servers']
    assert set(listed) == {'id', 'name', 'links'}
    assert (listed['id'], listed['name']) == (server.id, 'shape')
    [detailed] = _get(old, '/servers/detail').json()['servers']
    assert set(detailed) == DETAIL_2_1

    mid = user.compute('2.47')
    resp = _get(mid, path)
    assert resp.headers['OpenStack-API-Version'] == 'compute 2.47'
    shown = resp.json()['server']
    assert set(shown) == DETAIL_2_47
    assert shown['flavor'] == FLAVOR_2_47
    assert shown['os-extended-volumes:volumes_attached'] == [
        {'id': volume['id'], 'delete_on_termination': False}]
    assert shown['locked'] is False
    [detailed] = _get(mid, '/servers/detail').json()['servers']
    assert set(detailed) == DETAIL_2_47

    new = user.compute(sh.LATEST)
    resp = _get(new, path)
    assert resp.headers['OpenStack-API-Version'] == 'compute 2.90'
    shown = resp.json()['server']
    # Show adds server_groups (2.71); the list does not.
    assert set(shown) == DETAIL_2_90 | {'server_groups'}
    assert shown['OS-EXT-SRV-ATTR:hostname'] == 'shape'
    assert shown['server_groups'] == []
    [detailed] = _get(new, '/servers/detail').json()['servers']
    assert set(detailed) == DETAIL_2_90

    admin = cloud.admin().compute(sh.LATEST)
    shown = _get(admin, path).json()['server']
    assert set(shown) == ADMIN_2_90 | {'server_groups'}
    assert shown['OS-EXT-SRV-ATTR:root_device_name'] == '/dev/sda'


def test_list_pages_with_limit_and_marker(cloud):
    user = cloud.project()
    # Servers in a zone without hosts: listed as any other, and no guest
    # to wait for.
    made = [user.boot(name='page-%d' % i, wait=False,
                      availability_zone='nowhere').id for i in range(3)]
    http = user.compute(sh.LATEST)

    first = _get(http, '/servers?limit=2').json()
    assert len(first['servers']) == 2
    [link] = first['servers_links']
    assert link['rel'] == 'next'
    query = parse.parse_qs(parse.urlsplit(link['href']).query)
    assert query['marker'] == [first['servers'][-1]['id']]
    assert query['limit'] == ['2']
    assert link['href'].startswith(user.aio.compute_url)
    path = link['href'][len(http.base):]
    second = _get(http, path).json()
    assert len(second['servers']) == 1
    assert 'servers_links' not in second
    ids = [s['id'] for s in first['servers'] + second['servers']]
    # Newest first, each once.
    assert ids == list(reversed(made))
    detail = _get(http, '/servers/detail?limit=1&marker=%s' % ids[0]).json()
    assert [s['id'] for s in detail['servers']] == [ids[1]]
    assert 'marker=%s' % ids[1] in detail['servers_links'][0]['href']
    resp = http.get('/servers?marker=%s' % uuid.uuid4())
    assert resp.status_code == 400
    assert 'marker' in sh.message(resp)
    resp = http.get('/servers?limit=-1')
    assert resp.status_code == 400
    # Filters page too.
    named = _get(http, '/servers?name=page-1&limit=5').json()
    assert [s['id'] for s in named['servers']] == [made[1]]
    assert 'servers_links' not in named
    errors = _get(http, '/servers?status=ERROR&limit=3').json()
    assert len(errors['servers']) == 3
    assert _get(http, '/servers?status=ACTIVE').json()['servers'] == []
    # An unknown status: no servers before 2.38, then a 400 naming it.
    old = user.compute('2.37')
    assert _get(old, '/servers?status=BOGUS').json()['servers'] == []
    resp = http.get('/servers/detail?status=bogus')
    assert resp.status_code == 400, resp.text
    assert "'bogus'" in sh.message(resp) and 'ACTIVE' in sh.message(resp)


def test_update_name_description_and_hostname(cloud):
    user = cloud.project()
    server = user.boot(wait=False, availability_zone='nowhere', name='old')
    http = user.compute(sh.LATEST)
    resp = http.put('/servers/%s' % server.id, json={'server': {
        'name': 'new', 'description': 'renamed', 'hostname': 'new-host'}})
    assert resp.status_code == 200, resp.text
    shown = resp.json()['server']
    assert (shown['name'], shown['description'],
            shown['OS-EXT-SRV-ATTR:hostname']) == ('new', 'renamed',
                                                   'new-host')
    assert user.server(server.id)['name'] == 'new'
    for version, body, word in (
            ('2.18', {'description': 'x'}, 'description'),
            ('2.89', {'hostname': 'x'}, 'hostname'),
            (sh.LATEST, {'hostname': 'not_a_hostname'}, 'hostname'),
            (sh.LATEST, {'name': ''}, 'name'),
            (sh.LATEST, {'flavorRef': '2'}, 'flavorRef')):
        resp = user.compute(version).put('/servers/%s' % server.id,
                                         json={'server': body})
        assert resp.status_code == 400, (version, body, resp.text)
        assert word in sh.message(resp), (word, resp.text)


# What an update (and a rebuild) answers before 2.75: Nova's update view.
CHANGED_2_1 = {
    'id', 'name', 'links', 'status', 'tenant_id', 'user_id', 'metadata',
    'hostId', 'image', 'flavor', 'created', 'updated', 'addresses',
    'accessIPv4', 'accessIPv6', 'OS-DCF:diskConfig'}


def test_an_update_answers_the_core_fields_before_2_75(cloud):
    user = cloud.project()
    server = user.boot(wait=False, availability_zone='nowhere', name='old')
    path = '/servers/%s' % server.id
    # 2.9 locked, 2.19 description, 2.26 tags, 2.63 trusted certificates.
    changed_2_70 = CHANGED_2_1 | {'locked', 'description', 'tags',
                                  'trusted_image_certificates'}
    for version, expected in (
            ('2.1', CHANGED_2_1),
            ('2.70', changed_2_70),
            # 2.71 server_groups (as show has them), 2.73 locked_reason.
            ('2.74', changed_2_70 | {'server_groups', 'locked_reason'})):
        resp = user.compute(version).put(path, json={'server': {
            'name': 'v' + version}})
        assert resp.status_code == 200, resp.text
        # (progress only while ACTIVE or building, fault only in ERROR,
        # which this server that found no zone is in)
        assert set(resp.json()['server']) - {'progress', 'fault'} == \
            expected, version
    # From 2.75 all of show, as an admin's show has it.
    resp = user.compute('2.75').put(path, json={'server': {'name': 'new'}})
    assert resp.status_code == 200, resp.text
    shown = user.compute('2.75').get(path).json()['server']
    assert set(resp.json()['server']) == set(shown)
    assert 'OS-EXT-STS:vm_state' in shown


def test_2_94_hostnames_may_be_fully_qualified(cloud):
    user = cloud.project()
    fqdn = 'web-1.' + 'a' * 63 + '.example.com'
    server = user.boot(wait=False, name='fq')
    path = '/servers/%s' % server.id
    resp = user.compute('2.93').put(path, json={'server': {
        'hostname': fqdn}})
    assert resp.status_code == 400, resp.text
    assert 'hostname' in sh.message(resp)
    resp = user.compute('2.94').put(path, json={'server': {
        'hostname': fqdn}})
    assert resp.status_code == 200, resp.text
    assert resp.json()['server']['OS-EXT-SRV-ATTR:hostname'] == fqdn
    for bad in ('a..b', '-a.b', 'a-.b', 'a.' + 'b' * 64, 'a_b.c',
                '.'.join(['a' * 63] * 4) + '.ab'):
        resp = user.compute('2.94').put(path, json={'server': {
            'hostname': bad}})
        assert resp.status_code == 400, (bad, resp.text)
        assert ('fully qualified domain name' in sh.message(resp)
                or 'characters long, more than' in sh.message(resp)), resp.text


def test_2_96_shows_the_zone_asked_for(cloud):
    user = cloud.project()
    pinned = user.boot(availability_zone=CONF.default_availability_zone)
    free = user.boot()
    http = user.compute('2.96')
    assert http.get('/servers/%s' % pinned.id).json()['server'][
        'pinned_availability_zone'] == CONF.default_availability_zone
    assert http.get('/servers/%s' % free.id).json()['server'][
        'pinned_availability_zone'] is None
    detailed = {s['id']: s for s in _get(http, '/servers/detail').json()[
        'servers']}
    assert detailed[pinned.id]['pinned_availability_zone'] == \
        CONF.default_availability_zone
    assert 'pinned_availability_zone' not in user.compute('2.95').get(
        '/servers/%s' % free.id).json()['server']


def test_tenancy(cloud):
    owner = cloud.project()
    server = owner.boot()
    other = cloud.project()
    http = other.compute(sh.LATEST)
    path = '/servers/%s' % server.id

    # Another project: as if it did not exist.
    for method, sub, body in (
            ('GET', '', None), ('DELETE', '', None),
            ('PUT', '', {'server': {'name': 'mine'}}),
            ('POST', '/action', {'os-stop': None}),
            ('GET', '/os-volume_attachments', None)):
        resp = http.request(method, path + sub, json=body)
        assert resp.status_code == 404, (method, sub, resp.text)
        assert server.id in sh.message(resp)
    for listing in ('/servers', '/servers/detail'):
        assert _get(http, listing).json()['servers'] == []
        # all_tenants is for admins: 403 for a member, as in Nova.
        resp = http.get(listing + '?all_tenants=1')
        assert resp.status_code == 403, resp.text
    # A reader of the project sees it and may not change it.
    reader = owner.compute(sh.LATEST, roles=['reader'])
    assert _get(reader, path).json()['server']['id'] == server.id
    resp = reader.post(path + '/action', json={'os-stop': None})
    assert resp.status_code == 403, resp.text
    # An admin sees every project's with all_tenants, only its own without.
    admin = cloud.admin().compute(sh.LATEST)
    everyone = _get(admin, '/servers/detail?all_tenants=1').json()['servers']
    assert server.id in [s['id'] for s in everyone]
    own = _get(admin, '/servers?limit=1000').json()['servers']
    assert server.id not in [s['id'] for s in own]
    narrowed = _get(admin, '/servers?all_tenants=1&project_id=%s'
                    % owner.project).json()['servers']
    assert [s['id'] for s in narrowed] == [server.id]
    assert _get(admin, path).json()['server']['tenant_id'] == owner.project
    assert owner.server(server.id)['status'] == 'ACTIVE'
