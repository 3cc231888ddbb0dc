"""What a server is made of when its image maps volumes (a snapshot of a
volume-backed server, Nova's ``bdm_v2`` format), and what a snapshot
inherits of the image its server was made of: pure logic."""

import json

import pytest

from tether.compute.api import block_device_mapping as bdm
from tether.compute.api import server_images
from tether.compute import image_exception

SNAP_ROOT, SNAP_DATA = 'snap-root', 'snap-data'


def _image(mappings, **more):
    return dict({'id': 'img', 'bdm_v2': 'True',
                 'block_device_mapping': json.dumps(mappings)}, **more)


def _mapping(snapshot_id, boot_index, **more):
    return dict({'source_type': 'snapshot', 'destination_type': 'volume',
                 'snapshot_id': snapshot_id, 'boot_index': boot_index,
                 'volume_size': 2, 'delete_on_termination': True}, **more)


def test_an_image_without_mappings_maps_nothing():
    assert bdm.image_devices({'id': 'img'}, []) is None
    assert not bdm.maps_volumes({'id': 'img', 'bdm_v2': 'False'})


def test_the_images_mappings_then_the_requests_own():
    image = _image([_mapping(SNAP_ROOT, 0), _mapping(SNAP_DATA, None)])
    given = [bdm.Device('image', 'volume', 'img', boot_index=0,
                        volume_size=1),
             bdm.Device('volume', 'volume', 'vol-1', boot_index=None)]
    devices = bdm.image_devices(image, given)
    assert [(d.source_type, d.uuid, d.boot_index) for d in devices] == [
        ('snapshot', SNAP_ROOT, 0), ('snapshot', SNAP_DATA, None),
        ('volume', 'vol-1', None)]
    assert devices[0].volume_size == 2
    assert devices[0].delete_on_termination
    plan = bdm.plan(None, devices)
    assert plan.image_id is None and plan.needs_snapshots


@pytest.mark.parametrize('mappings, says', [
    ([_mapping(SNAP_DATA, 1)], 'no root disk'),
    ([_mapping(SNAP_ROOT, 0, destination_type='local')],
     'cannot make'),
    ('not a list', 'not a list'),
])
def test_images_that_map_what_cannot_be_made(mappings, says):
    image = _image(mappings) if not isinstance(mappings, str) else dict(
        id='img', bdm_v2='True', block_device_mapping='{"not": "a list"}')
    with pytest.raises(image_exception.ImageUnacceptable, match=says):
        bdm.image_devices(image, [])


def test_a_snapshot_inherits_the_images_own_properties_only():
    source = {'id': 'base', 'name': 'debian', 'status': 'active',
              'size': 123, 'checksum': 'x', 'min_ram': 64, 'min_disk': 1,
              'disk_format': 'raw', 'os_distro': 'debian',
              'hw_disk_bus': 'scsi', 'img_signature': 'sig',
              'os_glance_importing_to_stores': '', 'block_device_mapping':
              '[]', 'instance_uuid': 'old', 'signature_verified': 'False',
              'image_id': 'base', 'image_name': 'debian', 'tags': []}
    props, sizes = server_images._inherited(source)
    assert props == {'os_distro': 'debian', 'hw_disk_bus': 'scsi'}
    assert sizes == {'min_ram': 64, 'min_disk': 1}
