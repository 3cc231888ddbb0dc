"""QoS specs of a volume's type on the compute host: the front-end keys
(consumer front-end or both) reach it in the attachment's connection
info (``data.qos_specs``) and libvirt applies them to the running
guest's disk as ``<iotune>``, as Nova's libvirt driver maps them; the
keys of back-end specs do not."""

import xml.etree.ElementTree as ET

import pytest

from tests.functional.compute import server_helpers as sh
from tests.functional import helpers
from tests.functional.volume import qos_helpers as qh


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def _typed_volume(user, type_name, size=1):
    volume = helpers.create_volume(user.volumes(), size=size,
                                   wait_for=user.wait,
                                   volume_type=type_name)
    user.cloud.volumes.append((user, volume['id']))
    return volume


def _iotune_xml(server_id, target):
    """{name: value} of the disk's <iotune> in the live definition."""
    root = ET.fromstring(sh.virsh('dumpxml', sh.domain(server_id)).stdout)
    for disk in root.iterfind('./devices/disk'):
        if disk.find('target').get('dev') == target:
            tune = disk.find('iotune')
            return {} if tune is None else {c.tag: int(c.text)
                                            for c in tune}
    raise AssertionError('no disk %s' % target)


def _iotune_live(server_id, target):
    """{name: value} QEMU applies now (virsh blkdeviotune), the non-zero
    ones."""
    out = sh.virsh('blkdeviotune', sh.domain(server_id), target).stdout
    values = {}
    for line in out.splitlines():
        key, _, value = line.partition(':')
        if value.strip().isdigit() and int(value):
            values[key.strip()] = int(value)
    return values


def _qos_type(admin_http, consumer, **keys):
    qos = qh.create(admin_http, consumer=consumer, **keys)
    vtype = qh.vtype(admin_http)
    assert qh.associate(admin_http, qos['id'],
                        vtype['id']).status_code == 202
    return vtype


def test_front_end_qos_is_applied_to_the_attached_disk(aio, cloud):
    admin_http = qh.admin(aio)
    user = cloud.project()
    server = user.boot()
    front = _qos_type(admin_http, 'front-end', total_bytes_sec='10485760',
                      read_iops_sec='200', write_iops_sec_per_gb='50',
                      minIOPS='5')
    both = _qos_type(admin_http, 'both', total_iops_sec='300')
    back = _qos_type(admin_http, 'back-end', total_iops_sec='400')
    limited = _typed_volume(user, front['name'], size=2)
    shared = _typed_volume(user, both['name'])
    plain = _typed_volume(user, back['name'])
    for volume in (limited, shared, plain):
        user.conn.compute.create_volume_attachment(server,
                                                   volume_id=volume['id'])
    # The connection info as the volume service recorded it (an
    # administrator reads it): every key of front-end specs, the per-GiB
    # one resolved for 2 GiB; none of back-end specs ...
    [record] = user.attachments(limited['id'])
    shown = admin_http.get('/attachments/%s' % record['id']).json()
    data = shown['attachment']['connection_info']['data']
    assert data['qos_specs'] == {'total_bytes_sec': '10485760',
                                 'read_iops_sec': '200',
                                 'write_iops_sec': '100',
                                 'minIOPS': '5'}
    [record] = user.attachments(plain['id'])
    shown = admin_http.get('/attachments/%s' % record['id']).json()
    assert shown['attachment']['connection_info']['data'][
        'qos_specs'] is None

    # ... and the running guest's disks have the limits libvirt applies.
    expected = {'total_bytes_sec': 10485760, 'read_iops_sec': 200,
                'write_iops_sec': 100}
    assert _iotune_xml(server.id, 'sdb') == expected
    assert _iotune_live(server.id, 'sdb') == expected
    assert _iotune_xml(server.id, 'sdc') == {'total_iops_sec': 300}
    assert _iotune_live(server.id, 'sdc') == {'total_iops_sec': 300}
    assert _iotune_xml(server.id, 'sdd') == {}
    assert _iotune_live(server.id, 'sdd') == {}

    # Detached, the disk is gone with its limits; attached again it has
    # the specs of now.
    user.conn.compute.delete_volume_attachment(limited['id'], server)
    user.wait_volume(limited['id'], 'available')
    qos_id = admin_http.get('/types/%s' % front['id']).json()[
        'volume_type']['qos_specs_id']
    resp = admin_http.put('/qos-specs/%s' % qos_id,
                          json={'qos_specs': {'read_iops_sec': '150'}})
    assert resp.status_code == 200, resp.text
    user.conn.compute.create_volume_attachment(server,
                                               volume_id=limited['id'])
    assert _iotune_live(server.id, 'sdb') == dict(expected,
                                                  read_iops_sec=150)
