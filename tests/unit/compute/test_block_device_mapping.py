"""What a new server boots from: the rules of ``imageRef`` and
``block_device_mapping_v2``
(tether.compute.api.block_device_mapping.plan), as Nova reads them; no
service involved."""

import pytest

from tether.compute.api import block_device_mapping
from tether.compute import exception

IMAGE = '1f0c8a5e-3b7d-4c2a-9e6f-5d4b3a2c1e01'
OTHER_IMAGE = '1f0c8a5e-3b7d-4c2a-9e6f-5d4b3a2c1e02'
VOLUME = '2a9b8c7d-6e5f-4a3b-8c2d-1e0f9a8b7c01'
OTHER_VOLUME = '2a9b8c7d-6e5f-4a3b-8c2d-1e0f9a8b7c02'


def volume(uuid=VOLUME, boot_index=0, **kw):
    return block_device_mapping.Device('volume', 'volume', uuid, boot_index,
                                       **kw)


def image_volume(uuid=IMAGE, boot_index=0, volume_size=1, **kw):
    return block_device_mapping.Device('image', 'volume', uuid, boot_index,
                                       volume_size=volume_size, **kw)


def local(uuid=IMAGE, boot_index=0):
    return block_device_mapping.Device('image', 'local', uuid, boot_index,
                                       delete_on_termination=True)


def test_an_image_alone_is_a_local_root_disk():
    plan = block_device_mapping.plan(IMAGE, [])
    assert plan == block_device_mapping.Plan(image_id=IMAGE, volumes=())
    assert plan.needs_images


def test_the_mapping_openstack_server_create_image_adds():
    data = volume(boot_index=None)
    plan = block_device_mapping.plan(IMAGE, [local(), data])
    assert plan.image_id == IMAGE
    assert plan.volumes == (data,)


def test_a_volume_given_is_a_server_of_volumes():
    plan = block_device_mapping.plan(None, [volume(OTHER_VOLUME, 1), volume()])
    assert plan.image_id is None
    # The root first.
    assert [d.uuid for d in plan.volumes] == [VOLUME, OTHER_VOLUME]
    assert not plan.needs_images


def test_a_volume_made_of_an_image_needs_images():
    plan = block_device_mapping.plan(None, [image_volume()])
    assert plan.image_id is None
    assert plan.volumes[0].made_of_image
    assert plan.needs_images


@pytest.mark.parametrize('devices', [[volume()], [image_volume()]],
                         ids=['volume', 'image-volume'])
def test_a_root_volume_wins_over_imageref(devices):
    # Nova boots from the volume (Tempest sends imageRef beside it).
    plan = block_device_mapping.plan(IMAGE, devices)
    assert plan.image_id is None
    assert plan.volumes[0].is_root


@pytest.mark.parametrize('image_ref, devices, words', [
    (None, [local()], 'Mapping image to local is not supported.'),
    (IMAGE, [local(boot_index=1)],
     'Mapping image to local is not supported.'),
    (IMAGE, [local(OTHER_IMAGE)], 'must be the image of imageRef'),
    (None, [volume(), volume(OTHER_VOLUME)], 'only one'),
    (None, [volume(boot_index=1)], 'no entry has boot_index 0'),
    (None, [volume(), volume(boot_index=1)], 'given twice'),
    (None, [image_volume(volume_size=None)], 'non-zero size'),
    (None, [image_volume(volume_size=0)], 'non-zero size'),
], ids=['local-no-imageref', 'local-not-root', 'local-other-image',
        'two-roots', 'no-root', 'volume-twice', 'image-no-size',
        'image-size-0'])
def test_what_makes_no_server(image_ref, devices, words):
    with pytest.raises(exception.InvalidBDM) as raised:
        block_device_mapping.plan(image_ref, devices)
    assert words in str(raised.value)


def test_one_image_may_make_several_volumes():
    plan = block_device_mapping.plan(None, [image_volume(),
                                     image_volume(boot_index=None)])
    assert len(plan.volumes) == 2
