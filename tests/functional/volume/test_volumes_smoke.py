"""A volume's life over HTTP with openstacksdk: create, extend, delete."""

import os
import subprocess
import json


def _virtual_size(path):
    out = subprocess.run(['qemu-img', 'info', '--output=json', '-U', path],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)['virtual-size']


def test_create_extend_delete(aio, user, wait):
    volume = user.block_storage.create_volume(size=1, name='smoke')
    volume = user.block_storage.wait_for_status(volume, 'available',
                                                interval=0.05, wait=30)
    path = aio.volume_path(volume.id)
    assert _virtual_size(path) == 1024 ** 3

    user.block_storage.extend_volume(volume, 2)
    wait(lambda: user.block_storage.get_volume(volume).size == 2,
         what='extend')
    assert user.block_storage.get_volume(volume).status == 'available'
    assert _virtual_size(path) == 2 * 1024 ** 3

    user.block_storage.delete_volume(volume)
    user.block_storage.wait_for_delete(volume, interval=0.05, wait=30)
    assert not os.path.exists(path)
