"""Servers booted from volumes, attachments, attach/detach and the online
extend, with the openstack CLI: real guests under libvirt, the compute
service calling the volume API (and back) with Keystone credentials."""

import pytest

from tests.integration.clients import GiB, unique


def _new_volume(cloud, size=1):
    created = cloud.openstack('member', 'volume', 'create', '--size',
                              str(size), unique('vol'), '-f', 'json')
    return cloud.wait_volume('member', created['id'], 'available')


@pytest.fixture(scope='module')
def server(cloud):
    """A server of the demo project, booted from a volume of its own."""
    root = _new_volume(cloud)
    flavors = cloud.openstack('member', 'flavor', 'list', '-f', 'json')
    flavor = min(flavors, key=lambda f: f['RAM'])
    created = cloud.openstack(
        'member', 'server', 'create', '--flavor', flavor['Name'],
        '--volume', root['id'], '--nic', 'none', '--wait', unique('srv'),
        '-f', 'json')
    yield dict(created, root_volume_id=root['id'])
    cloud.openstack('member', 'server', 'delete', '--wait', created['id'])
    # The root volume was not deleted with the server: it is free again.
    cloud.wait_volume('member', root['id'], 'available')
    cloud.openstack('member', 'volume', 'delete', root['id'])
    cloud.wait_volume_gone('member', root['id'])
    assert not cloud.deployment.libvirt.domain_exists(
        'instance-' + created['id'])


def test_a_server_boots_from_a_volume(cloud, server):
    assert server['status'] == 'ACTIVE'
    assert cloud.deployment.libvirt.virsh(
        'domstate', 'instance-' + server['id']).strip() == 'running'
    root = cloud.get_volume('member', server['root_volume_id'])
    assert root['status'] == 'in-use'
    assert [a['server_id'] for a in root['attachments']] == [server['id']]
    listed = cloud.openstack('member', 'server', 'volume', 'list',
                             server['id'], '-f', 'json')
    assert [v['Volume ID'] for v in listed] == [root['id']]
    # The guest's first disk is the volume's file.
    assert cloud.disk_capacity(server['id'], root['id']) == GiB


def test_add_and_remove_a_volume(cloud, server):
    volume = _new_volume(cloud)
    cloud.openstack('member', 'server', 'add', 'volume', server['id'],
                    volume['id'])
    attached = cloud.wait_volume('member', volume['id'], 'in-use')
    assert [a['server_id'] for a in attached['attachments']] == [
        server['id']]
    assert cloud.disk_capacity(server['id'], volume['id']) == GiB
    listed = cloud.openstack('member', 'server', 'volume', 'list',
                             server['id'], '-f', 'json')
    assert volume['id'] in [v['Volume ID'] for v in listed]

    cloud.openstack('member', 'server', 'remove', 'volume', server['id'],
                    volume['id'])
    detached = cloud.wait_volume('member', volume['id'], 'available')
    assert detached['attachments'] == []
    path = '%s/volume-%s' % (cloud.deployment.share_dir, volume['id'])
    assert cloud.disk_target(server['id'], path) is None
    cloud.openstack('member', 'volume', 'delete', volume['id'])
    cloud.wait_volume_gone('member', volume['id'])


def test_the_online_extend_of_an_attached_volume(cloud, server):
    volume = _new_volume(cloud)
    cloud.openstack('member', 'server', 'add', 'volume', server['id'],
                    volume['id'])
    cloud.wait_volume('member', volume['id'], 'in-use')
    assert cloud.disk_capacity(server['id'], volume['id']) == GiB

    # 3.42: an in-use volume may be extended. The volume service asks the
    # compute service (volume-extended), which grows the disk in the
    # running guest and answers with os-extend_volume_completion.
    cloud.openstack('member', 'volume', 'set', '--size', '2', volume['id'],
                    volume_version='3.42')
    cloud.wait_for_volume(
        'member', volume['id'],
        lambda v: v['status'] == 'in-use' and v['size'] == 2,
        'in-use at 2 GiB')
    assert cloud.disk_capacity(server['id'], volume['id']) == 2 * GiB
    events = cloud.openstack('member', 'server', 'event', 'list',
                             server['id'], '-f', 'json')
    assert 'extend_volume' in [e['Action'] for e in events]
    cloud.assert_quota_matches('demo')

    cloud.openstack('member', 'server', 'remove', 'volume', server['id'],
                    volume['id'])
    cloud.wait_volume('member', volume['id'], 'available')
    cloud.openstack('member', 'volume', 'delete', volume['id'])
    cloud.wait_volume_gone('member', volume['id'])


def test_the_attachments_api(cloud, server):
    """openstack volume attachment create/list/show/set/complete/delete:
    what a consumer of the attachments API does, step by step."""
    volume = _new_volume(cloud)
    # At 3.54: below it, openstacksdk sends "mode": null, which the
    # schema of 3.27 refuses as Cinder's does.
    created = cloud.openstack(
        'member', 'volume', 'attachment', 'create', volume['id'],
        '--server', server['id'], '-f', 'json', volume_version='3.54')
    attachment_id = created['ID']
    assert (created['Volume ID'], created['Instance ID'],
            created['Status']) == (volume['id'], server['id'], 'reserved')
    assert cloud.get_volume('member', volume['id'])['status'] == 'reserved'

    listed = cloud.openstack('member', 'volume', 'attachment', 'list',
                             '-f', 'json', volume_version='3.27')
    assert {'ID': attachment_id, 'Volume ID': volume['id'],
            'Server ID': server['id'], 'Status': 'reserved'} in listed
    shown = cloud.openstack('member', 'volume', 'attachment', 'show',
                            attachment_id, '-f', 'json',
                            volume_version='3.27')
    assert shown['Status'] == 'reserved'

    # The connector: the volume service answers with how to connect.
    updated = cloud.openstack(
        'member', 'volume', 'attachment', 'set', attachment_id,
        '--host', 'int-consumer', '--initiator', 'iqn.int-consumer',
        '--mountpoint', '/dev/sdz', '-f', 'json', volume_version='3.27')
    assert updated['Status'] == 'attaching'
    # The connection info: the share and the file on it.
    assert updated['Properties']['driver_volume_type'] == 'nfs'
    assert updated['Properties']['data']['export'] == \
        cloud.deployment.share_dir
    assert updated['Properties']['data']['name'] == 'volume-' + volume['id']

    cloud.openstack('member', 'volume', 'attachment', 'complete',
                    attachment_id, volume_version='3.44')
    volume = cloud.get_volume('member', volume['id'])
    assert volume['status'] == 'in-use'
    # The host's name only for admins and services, as Cinder shows it.
    assert [(a['attachment_id'], a['host_name'], a['device'])
            for a in volume['attachments']] == [
        (attachment_id, None, '/dev/sdz')]
    assert [a['host_name'] for a in cloud.get_volume(
        'admin', volume['id'])['attachments']] == ['int-consumer']
    shown = cloud.openstack('member', 'volume', 'attachment', 'show',
                            attachment_id, '-f', 'json',
                            volume_version='3.27')
    assert shown['Status'] == 'attached'

    cloud.openstack('member', 'volume', 'attachment', 'delete',
                    attachment_id, volume_version='3.27')
    volume = cloud.wait_volume('member', volume['id'], 'available')
    assert volume['attachments'] == []
    assert attachment_id not in [a['ID'] for a in cloud.openstack(
        'member', 'volume', 'attachment', 'list', '-f', 'json',
        volume_version='3.27')]
    cloud.openstack('member', 'volume', 'delete', volume['id'])
    cloud.wait_volume_gone('member', volume['id'])
