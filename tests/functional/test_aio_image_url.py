"""tether-aio --image-url: the real command as a subprocess, pointed at a
Glance that runs already (the session aio's), with --first-image. It
starts no Glance of its own, uploads tether-tiny into that Glance on its
first start only, and serves images and volumes made of them through
it, as the openstack CLI sees them."""

import hashlib
import json
import uuid

import pytest

from tests.functional import aio_subprocess
from tests.functional import helpers

from tether.cmd import aio as aio_cmd


@pytest.fixture
def running_glance(aio):
    """The session aio's Glance, with no image named tether-tiny (the one
    a test's tether-aio uploads is removed after)."""
    glance = aio.admin().image

    def tiny_images():
        return list(glance.images(name=aio_cmd.FIRST_IMAGE_NAME))
    for image in tiny_images():
        glance.delete_image(image)
    yield aio.image_url, tiny_images
    for image in tiny_images():
        glance.delete_image(image)


def _openstack(state, *args):
    """``openstack ARGS`` as the aio's demo user; its JSON output."""
    out = aio_subprocess.openstack(state, 'tether', *args)
    return json.loads(out) if out.strip() else None


def test_a_glance_that_runs_already_gets_the_first_image_once(
        aio, running_glance, tmp_path, wait):
    url, tiny_images = running_glance
    first = tmp_path / 'first.img'
    data = helpers.disk_bytes(b'first image ' + uuid.uuid4().hex.encode())
    first.write_bytes(data)
    # An image the running Glance had before: the new tether sees it too.
    before = aio.admin().image.create_image(
        name='before-%s' % uuid.uuid4().hex[:6], data=data,
        disk_format='raw', container_format='bare', visibility='public')
    state = tmp_path / 'state'
    try:
        proc, _ = aio_subprocess.start(
            state, '--image-url', url, '--first-image', str(first),
            '--api-workers', '0', timeout=120)
        try:
            # No Glance of its own: no virtualenv run, no store.
            assert not (state / 'glance').exists()
            [uploaded] = tiny_images()
            assert (uploaded.status, uploaded.visibility) == (
                'active', 'public')
            assert uploaded.hash_value == hashlib.sha256(data).hexdigest()
            listed = {i['ID'] for i in _openstack(state, 'image', 'list',
                                                  '-f', 'json')}
            assert {uploaded.id, before.id} <= listed
            # A volume of the first image, read through that Glance's API.
            volume = _openstack(state, 'volume', 'create', '--size', '1',
                                '--image', aio_cmd.FIRST_IMAGE_NAME,
                                'from-first', '-f', 'json')

            def made():
                shown = _openstack(state, 'volume', 'show', volume['id'],
                                   '-f', 'json')
                assert shown['status'] in ('creating', 'downloading',
                                           'available'), shown
                return shown if shown['status'] == 'available' else None
            shown = wait(made, timeout=120, what='the volume')
            assert str(shown['bootable']).lower() == 'true'
            assert shown['volume_image_metadata']['image_id'] == uploaded.id
            _openstack(state, 'volume', 'delete', volume['id'])
        finally:
            aio_subprocess.stop(proc)
        # Its next start finds tether-tiny there and uploads nothing.
        proc, _ = aio_subprocess.start(
            state, '--image-url', url, '--first-image', str(first),
            '--api-workers', '0', timeout=120)
        aio_subprocess.stop(proc)
        assert [i.id for i in tiny_images()] == [uploaded.id]
    finally:
        aio.admin().image.delete_image(before)
