"""What an image made of a volume takes from the volume's image metadata,
and how a re-image is told from a create (pure functions)."""

import pytest

from tether.objects.volume import volume as volume_obj
from tether.volume import image_state
from tether.volume import volume_image


def test_the_properties_of_the_volumes_image_go_to_its_upload():
    image = {
        'id': '7e3b8f52-0c55-4c5e-9d3e-2f3c9a1e6b01', 'name': 'tiny',
        'status': 'active', 'checksum': 'c', 'size': 4, 'virtual_size': 4,
        'disk_format': 'qcow2', 'container_format': 'bare', 'min_disk': 1,
        'min_ram': 64, 'owner': 'p', 'visibility': 'public',
        'os_distro': 'debian', 'hw_disk_bus': 'scsi', 'note': 'mine',
        'img_signature': 's', 'img_signature_hash_method': 'SHA-256',
        'os_glance_importing_to_stores': 'x'}
    metadata = volume_image.metadata(image)
    assert volume_image.upload_properties(metadata) == {
        'os_distro': 'debian', 'hw_disk_bus': 'scsi', 'note': 'mine'}


@pytest.mark.parametrize('key', ['status', 'owner', 'id', 'locations',
                                 'os_hidden', 'signature_verified',
                                 'os_glance_x', 'image_name'])
def test_what_the_image_api_keeps_for_itself_is_never_sent(key):
    assert volume_image.upload_properties({key: 'v', 'kept': 'k'}) == {
        'kept': 'k'}


@pytest.mark.parametrize('status,previous,reimaging', [
    ('downloading', None, False),         # a create from an image
    ('downloading', 'reserved', True),    # a rebuild's re-image
    ('downloading', 'available', True),
    ('downloading', 'error', True),
    ('available', 'downloading', False),  # a re-image that ended
    ('creating', None, False),
])
def test_a_reimage_is_told_from_a_create(status, previous, reimaging):
    volume = volume_obj.Volume(status=status, previous_status=previous)
    assert image_state.reimaging(volume) is reimaging
