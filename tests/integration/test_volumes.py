"""Volumes with the openstack CLI, over Keystone, RabbitMQ and PostgreSQL."""

import os

from tests.integration.clients import GiB, unique


def test_a_volume_from_create_to_delete(cloud):
    name = unique('vol')
    created = cloud.openstack('member', 'volume', 'create', '--size', '1',
                              '--description', 'integration', name,
                              '-f', 'json')
    assert created['name'] == name
    assert created['size'] == 1
    volume = cloud.wait_volume('member', created['id'], 'available')
    # tether-volume made the file on the share, 1 GiB.
    path = os.path.join(cloud.deployment.share_dir,
                        'volume-' + created['id'])
    assert os.path.getsize(path) == GiB

    listed = cloud.openstack('member', 'volume', 'list', '-f', 'json')
    columns = ('ID', 'Name', 'Status', 'Size')
    assert (created['id'], name, 'available', 1) in [
        tuple(v[k] for k in columns) for v in listed]
    shown = cloud.openstack('member', 'volume', 'show', name, '-f', 'json')
    assert (shown['id'], shown['status'], shown['size'],
            shown['description']) == (created['id'], 'available', 1,
                                      'integration')
    assert shown['os-vol-tenant-attr:tenant_id'] == cloud.project_id('demo')
    cloud.assert_quota_matches('demo')

    # Extend (os-extend): the volume and its file grow.
    cloud.openstack('member', 'volume', 'set', '--size', '2', name)
    volume = cloud.wait_volume('member', created['id'], 'available')
    assert volume['size'] == 2
    assert os.path.getsize(path) == 2 * GiB
    cloud.assert_quota_matches('demo')

    cloud.openstack('member', 'volume', 'delete', name)
    cloud.wait_volume_gone('member', created['id'])
    assert not os.path.exists(path)
    assert name not in [v['Name'] for v in cloud.openstack(
        'member', 'volume', 'list', '-f', 'json')]
    cloud.assert_quota_matches('demo')


def test_volumes_with_openstacksdk(cloud):
    storage = cloud.sdk('member').block_storage
    volume = storage.create_volume(size=1, name=unique('sdk'))
    volume = storage.wait_for_status(volume, 'available', wait=120)
    assert volume.size == 1
    assert volume.id in [v.id for v in storage.volumes()]
    storage.extend_volume(volume, 3)
    volume = cloud.wait_volume('member', volume.id, 'available')
    assert volume['size'] == 3
    storage.delete_volume(volume['id'])
    cloud.wait_volume_gone('member', volume['id'])
    cloud.assert_quota_matches('demo')


def test_the_services_report_up(cloud):
    volume = cloud.openstack('admin', 'volume', 'service', 'list',
                             '-f', 'json')
    compute = cloud.openstack('admin', 'compute', 'service', 'list',
                              '-f', 'json')
    host = cloud.deployment.host
    # The volume service and the backup service (tether-backup), each
    # under Cinder's name for it.
    assert sorted((s['Binary'], s['Host'], s['State']) for s in volume) == [
        ('cinder-backup', host, 'up'), ('cinder-volume', host + '@int', 'up')]
    assert [(s['Binary'], s['Host'], s['State']) for s in compute] == [
        ('tether-compute', host, 'up')]
