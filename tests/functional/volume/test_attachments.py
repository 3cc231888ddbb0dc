"""The attachments API over HTTP, as openstacksdk and Nova use it.

Real API, database, RPC and NFS driver (on the local share); the
connection info names the real share and file.
"""

import uuid

import openstack
import pytest

from tests.functional import helpers

MULTIATTACH = {'multiattach': '<is> True'}


def _connector(host=None, **extra):
    # A host of its own per test: attachments of other tests (other
    # projects) on the same host would share its connection too.
    host = host or 'compute-' + uuid.uuid4().hex[:8]
    return dict({'host': host, 'initiator': 'iqn.2026-11.test:' + host,
                 'platform': 'x86_64', 'os_type': 'linux',
                 'multipath': False, 'mountpoint': '/dev/vdb'}, **extra)


def _volume(conn, wait, volume_type=None):
    attrs = {'size': 1}
    if volume_type:
        attrs['volume_type'] = volume_type
    volume = conn.block_storage.create_volume(**attrs)
    return conn.block_storage.wait_for_status(volume, 'available',
                                              interval=0.05, wait=30)


def _status(conn, volume):
    return conn.block_storage.get_volume(volume).status


def _multiattach_type(aio):
    name = 'multi-' + uuid.uuid4().hex[:8]
    aio.admin().block_storage.create_type(name=name, extra_specs=MULTIATTACH)
    return name


def test_life_cycle(aio, user, wait):
    volume = _volume(user, wait)
    instance = str(uuid.uuid4())
    host = 'compute-' + uuid.uuid4().hex[:8]
    bs = user.block_storage

    attachment = bs.create_attachment(volume, instance=instance)
    assert attachment.status == 'reserved'
    assert attachment.instance == instance
    assert attachment.volume_id == volume.id
    assert _status(user, volume) == 'reserved'

    attachment = bs.update_attachment(attachment,
                                      connector=_connector(host))
    assert attachment.status == 'attaching'
    info = attachment.connection_info
    assert info['driver_volume_type'] == 'nfs'
    assert info['data'] == {
        'export': aio.share_dir, 'name': 'volume-%s' % volume.id,
        'format': 'raw', 'options': None, 'access_mode': 'rw',
        'volume_id': volume.id,
        # The front-end QoS specs of its type: none.
        'qos_specs': None}
    assert _status(user, volume) == 'attaching'

    bs.complete_attachment(attachment)
    shown = bs.get_attachment(attachment.id)
    assert shown.status == 'attached'
    assert shown.connection_info == info
    assert shown.connector['host'] == host
    got = bs.get_volume(volume)
    assert got.status == 'in-use'
    # host_name is for administrators and services, as in Cinder.
    assert [(a['attachment_id'], a['server_id'], a['host_name'],
             a['device']) for a in got.attachments] == [
        (attachment.id, instance, None, '/dev/vdb')]
    (shown,) = aio.admin().block_storage.get_volume(volume).attachments
    assert shown['host_name'] == host
    assert [a.id for a in bs.attachments()] == [attachment.id]

    bs.delete_attachment(attachment)
    assert _status(user, volume) == 'available'
    assert bs.get_volume(volume).attachments == []
    with pytest.raises(openstack.exceptions.NotFoundException):
        bs.get_attachment(attachment.id)
    bs.delete_volume(volume)


def test_create_with_connector_reserves_and_connects(aio, user, wait):
    volume = _volume(user, wait)
    attachment = user.block_storage.create_attachment(
        volume, instance=str(uuid.uuid4()), connector=_connector())
    assert attachment.status == 'attaching'
    assert attachment.connection_info['data']['name'] == \
        'volume-%s' % volume.id
    assert _status(user, volume) == 'attaching'
    user.block_storage.complete_attachment(attachment)
    assert _status(user, volume) == 'in-use'


def test_multiattach_two_instances_on_one_host_share_a_connection(
        aio, user, wait):
    volume = _volume(user, wait, _multiattach_type(aio))
    assert volume.is_multiattach
    bs = user.block_storage
    host = 'compute-' + uuid.uuid4().hex[:8]
    first = bs.create_attachment(volume, instance=str(uuid.uuid4()))
    bs.update_attachment(first, connector=_connector(host))
    bs.complete_attachment(first)
    second = bs.create_attachment(volume, instance=str(uuid.uuid4()),
                                  connector=_connector(host))
    bs.complete_attachment(second)
    assert _status(user, volume) == 'in-use'
    assert sorted(a['attachment_id'] for a in
                  bs.get_volume(volume).attachments) == \
        sorted([first.id, second.id])

    http = aio.http(user.test_user, user.test_project, version='3.44')
    shown = http.get('/attachments/%s' % first.id).json()['attachment']
    assert shown['shared_connections_by_attachment'] == [second.id]
    # A volume of another project on the same host and share shares the
    # connection too: the compute service and admins are told, the user
    # is not.
    stranger = aio.sdk()
    theirs = stranger.block_storage.create_attachment(
        _volume(stranger, wait), instance=str(uuid.uuid4()),
        connector=_connector(host))
    assert http.get('/attachments/%s' % first.id).json()['attachment'][
        'shared_connections_by_attachment'] == [second.id]
    compute = aio.http(user.test_user, user.test_project,
                       roles=['member', 'service'], version='3.44')
    assert sorted(compute.get('/attachments/%s' % first.id).json()[
        'attachment']['shared_connections_by_attachment']) == \
        sorted([second.id, theirs.id])
    stranger.block_storage.delete_attachment(theirs)
    # Another host shares nothing with them.
    third = bs.create_attachment(volume, instance=str(uuid.uuid4()),
                                 connector=_connector())
    shown = http.get('/attachments/%s' % third.id).json()['attachment']
    assert shown['shared_connections_by_attachment'] == []

    resp = http.delete('/attachments/%s' % first.id)
    assert resp.status_code == 200, resp.text
    body = resp.json()
    assert sorted(a['id'] for a in body['attachments']) == \
        sorted([second.id, third.id])
    assert body['shared_connections_by_attachment'] == [second.id]
    # third is attaching, second attached: the volume is in use.
    assert _status(user, volume) == 'in-use'

    resp = http.delete('/attachments/%s' % second.id)
    assert resp.json()['shared_connections_by_attachment'] == []
    assert _status(user, volume) == 'attaching'
    resp = http.delete('/attachments/%s' % third.id)
    assert resp.json() == {'attachments': [],
                           'shared_connections_by_attachment': []}
    assert _status(user, volume) == 'available'


def test_non_multiattach_volume_refuses_a_second_attachment(user, wait):
    volume = _volume(user, wait)
    user.block_storage.create_attachment(volume, instance=str(uuid.uuid4()))
    with pytest.raises(openstack.exceptions.BadRequestException) as err:
        user.block_storage.create_attachment(volume,
                                             instance=str(uuid.uuid4()))
    message = str(err.value)
    assert 'is reserved and not multiattach' in message
    assert 'multiattach="<is> True"' in message


def test_same_instance_may_attach_again_as_a_migration_does(aio, user,
                                                            wait):
    """LP 1694530: the destination's attachment next to the source's."""
    volume = _volume(user, wait)
    instance = str(uuid.uuid4())
    bs = user.block_storage
    source = bs.create_attachment(volume, instance=instance,
                                  connector=_connector('source'))
    bs.complete_attachment(source)
    destination = bs.create_attachment(volume, instance=instance)
    assert destination.status == 'reserved'
    assert _status(user, volume) == 'in-use'
    # On the source's host it would be a second connection: 409.
    http = aio.http(user.test_user, user.test_project, version='3.44')
    resp = http.put('/attachments/%s' % destination.id,
                    json={'attachment': {'connector': _connector('source')}})
    assert resp.status_code == 409, resp.text
    assert 'already connects it to host source' in resp.text
    bs.update_attachment(destination, connector=_connector('destination'))
    bs.complete_attachment(destination)
    bs.delete_attachment(source)
    assert _status(user, volume) == 'in-use'
    # Another instance still cannot.
    with pytest.raises(openstack.exceptions.BadRequestException):
        bs.create_attachment(volume, instance=str(uuid.uuid4()))


def test_same_instance_may_reserve_a_reserved_volume_again(aio, user,
                                                           wait):
    """A rebuild done again after it failed: the instance's reserved
    attachment and a second one; nobody else's."""
    volume = _volume(user, wait)
    instance = str(uuid.uuid4())
    bs = user.block_storage
    first = bs.create_attachment(volume, instance=instance)
    assert _status(user, volume) == 'reserved'
    with pytest.raises(openstack.exceptions.BadRequestException,
                       match='is reserved and not multiattach'):
        bs.create_attachment(volume, instance=str(uuid.uuid4()))
    second = bs.create_attachment(volume, instance=instance)
    assert second.status == 'reserved'
    bs.delete_attachment(first)
    assert _status(user, volume) == 'reserved'
    bs.update_attachment(second, connector=_connector('host'))
    bs.complete_attachment(second)
    assert _status(user, volume) == 'in-use'


def test_read_only_mode(aio, user, wait):
    volume = _volume(user, wait)
    bs = user.block_storage
    attachment = bs.create_attachment(volume, instance=str(uuid.uuid4()),
                                      mode='ro')
    # The attachment's mode wins over the connector's.
    attachment = bs.update_attachment(attachment,
                                      connector=_connector(mode='rw'))
    assert attachment.connection_info['data']['access_mode'] == 'ro'
    http = aio.http(user.test_user, user.test_project, version='3.54')
    shown = http.get('/attachments/%s' % attachment.id).json()['attachment']
    assert shown['attach_mode'] == 'ro'
    assert shown['connector']['mode'] == 'ro'


def test_mode_from_the_connector_when_none_was_chosen(aio, user, wait):
    volume = _volume(user, wait)
    http = aio.http(user.test_user, user.test_project, version='3.27')
    resp = http.post('/attachments', json={'attachment': {
        'volume_uuid': volume.id, 'connector': _connector(mode='ro')}})
    assert resp.status_code == 200, resp.text
    body = resp.json()['attachment']
    assert body['attach_mode'] == 'ro'
    assert body['instance'] is None
    assert body['connection_info']['data']['access_mode'] == 'ro'


def test_tenancy(aio, user, wait):
    volume = _volume(user, wait)
    attachment = user.block_storage.create_attachment(
        volume, instance=str(uuid.uuid4()), connector=_connector())
    other = aio.http(version='3.44')
    for method, path, body in (
            ('GET', '', None),
            ('PUT', '', {'attachment': {'connector': _connector()}}),
            ('POST', '/action', {'os-complete': {}}),
            ('DELETE', '', None)):
        resp = other.request(method, '/attachments/%s%s'
                             % (attachment.id, path), json=body)
        assert resp.status_code == 404, (method, path, resp.text)
        assert attachment.id in resp.json()['itemNotFound']['message']
    assert other.get('/attachments').json() == {'attachments': []}
    # Nor can another project attach the volume.
    resp = other.post('/attachments', json={'attachment': {
        'volume_uuid': volume.id}})
    assert resp.status_code == 404, resp.text

    admin = aio.http('admin', 'admin', version='3.44')
    assert admin.get('/attachments/%s' % attachment.id).status_code == 200
    listed = admin.get('/attachments?all_tenants=1&volume_id=%s'
                       % volume.id).json()['attachments']
    assert [a['id'] for a in listed] == [attachment.id]
    # Without all_tenants an admin lists its own project.
    assert attachment.id not in [
        a['id'] for a in admin.get('/attachments').json()['attachments']]


def test_reader_sees_attachments_without_connection_info(aio, user, wait):
    volume = _volume(user, wait)
    attachment = user.block_storage.create_attachment(
        volume, instance=str(uuid.uuid4()), connector=_connector())
    reader = aio.http(user.test_user + '-r', user.test_project,
                      roles=['reader'], version='3.44')
    shown = reader.get('/attachments/%s' % attachment.id)
    assert shown.status_code == 200, shown.text
    assert 'connection_info' not in shown.json()['attachment']
    assert 'connector' not in shown.json()['attachment']
    detail = reader.get('/attachments/detail').json()['attachments']
    assert [('connection_info' in a) for a in detail] == [False]
    for method, path, body in (
            ('POST', '/attachments', {'attachment': {
                'volume_uuid': volume.id}}),
            ('PUT', '/attachments/' + attachment.id,
             {'attachment': {'connector': _connector()}}),
            ('POST', '/attachments/%s/action' % attachment.id,
             {'os-complete': {}}),
            ('DELETE', '/attachments/' + attachment.id, None)):
        resp = reader.request(method, path, json=body)
        assert resp.status_code == 403, (method, path, resp.text)
        assert 'volume:attachment_' in resp.json()['forbidden']['message']


def test_list_filters_and_pages(aio, wait):
    http = aio.http(version='3.27')
    conn = aio.sdk(http.user, http.project)
    volume = _volume(conn, wait, _multiattach_type(aio))
    instances = [str(uuid.uuid4()) for _ in range(5)]
    ids = []
    for instance in instances:
        resp = http.post('/attachments', json={'attachment': {
            'volume_uuid': volume.id, 'instance_uuid': instance}})
        assert resp.status_code == 200, resp.text
        ids.append(resp.json()['attachment']['id'])
    conn.block_storage.update_attachment(ids[0], connector=_connector())

    def listed(query, path='/attachments'):
        resp = http.get(path + query)
        assert resp.status_code == 200, resp.text
        return [a['id'] for a in resp.json()['attachments']]

    assert listed('?instance_id=%s' % instances[2]) == [ids[2]]
    assert listed('?status=attaching') == [ids[0]]
    assert sorted(listed('?volume_id=%s&status=reserved' % volume.id)) == \
        sorted(ids[1:])
    assert listed('?sort=created_at:asc,id:asc') == ids
    # Pages of two by the marker, then the next link.
    page = http.get('/attachments/detail?limit=2&sort=created_at:asc')
    body = page.json()
    assert [a['id'] for a in body['attachments']] == ids[:2]
    next_url = body['attachments_links'][0]['href']
    seen = [a['id'] for a in body['attachments']]
    while next_url:
        body = http.session.get(next_url).json()
        seen += [a['id'] for a in body['attachments']]
        links = body.get('attachments_links')
        next_url = links[0]['href'] if links else None
    assert seen == ids
    # openstacksdk pages the same way.
    assert sorted(a.id for a in conn.block_storage.attachments(limit=2)) \
        == sorted(ids)
    summary = http.get('/attachments?limit=1').json()['attachments'][0]
    assert set(summary) == {'id', 'status', 'instance', 'volume_id'}


def test_volume_with_attachments_cannot_be_deleted(aio, user, wait):
    volume = _volume(user, wait)
    attachment = user.block_storage.create_attachment(
        volume, instance=str(uuid.uuid4()))
    with pytest.raises(openstack.exceptions.BadRequestException) as err:
        user.block_storage.delete_volume(volume)
    assert 'is reserved' in str(err.value)
    user.block_storage.delete_attachment(attachment)
    user.block_storage.delete_volume(volume)
    user.block_storage.wait_for_delete(volume, interval=0.05, wait=30)


def test_service_may_delete_an_attachment_in_use(aio, user, wait):
    volume = _volume(user, wait)
    attachment = user.block_storage.create_attachment(
        volume, instance=str(uuid.uuid4()), connector=_connector())
    user.block_storage.complete_attachment(attachment)
    service = aio.http(user.test_user, user.test_project,
                       roles=['member', 'service'], version='3.27')
    resp = service.delete('/attachments/%s' % attachment.id)
    assert resp.status_code == 200, resp.text
    assert helpers.db_volume(volume.id).status == 'available'
