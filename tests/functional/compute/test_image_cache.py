"""Servers from images on a compute host at once, and over time: two
builds of one image share one download, the image cache manager removes
only unused images, a delete overtakes a build, a restart fails a build
it interrupted (real Glance, qemu-img, libvirt and QEMU; small images
without an operating system)."""

import os
import time

from oslo_config import cfg
import pytest
from tests.functional.compute import server_helpers as sh
from tests.functional import helpers
from tests.functional import image_helpers

from tether.compute.ops import image_cache
from tether.db.compute import instance as db_instances
from tether.drivers import qemu_img

CONF = cfg.CONF
MiB = helpers.MiB


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def test_two_servers_of_one_image_at_once_download_it_once(cloud,
                                                           monkeypatch):
    user = cloud.project()
    image = image_helpers.upload(user.conn,
                                 helpers.disk_bytes(size=32 * MiB))
    ids = []

    def both_spawning():
        # The first download waits until both builds are spawning (the
        # second on its way to the image's lock, or at it).
        ctx = helpers.admin_context()
        user.wait(lambda: len(ids) == 2 and all(
            db_instances.get(ctx, i).task_state == 'spawning'
            for i in ids), timeout=60, what='both builds spawning')
        time.sleep(0.5)

    downloads = image_helpers.Downloads(monkeypatch, before=both_spawning)
    ids.extend(helpers.race(
        [lambda: sh.boot_image(user, image, wait=False).id] * 2))
    servers = [user.wait_server(i) for i in ids]
    assert downloads.calls == [image.id]
    for server in servers:
        info = qemu_img.info(sh.root_disk(server.id), 'qcow2',
                             force_share=True)
        assert info.backing_file == sh.cached(image.id)
        assert sh.domain_state(server.id) == 'running'
    # A third, later, finds it cached.
    sh.boot_image(user, image)
    assert downloads.calls == [image.id]


def test_the_image_cache_manager_removes_only_unused_images(
        cloud, monkeypatch):
    user = cloud.project()
    kept, dropped = (image_helpers.upload(user.conn,
                                          helpers.disk_bytes(m))
                     for m in (b'kept', b'dropped'))
    first, second = sh.boot_image(user, kept), sh.boot_image(user, kept)
    gone = sh.boot_image(user, dropped)
    user.conn.compute.delete_server(gone)
    user.wait_gone(gone.id)
    manager = user.aio.impl.compute_service.manager
    ctx = helpers.admin_context()

    # Unused, but younger than remove_unused_original_minimum_age_seconds.
    assert dropped.id not in image_cache.manage(ctx, manager)
    assert os.path.exists(sh.cached(dropped.id))

    CONF.set_override('remove_unused_original_minimum_age_seconds', 0,
                      group='image_cache')
    try:
        # Never one a server of the host uses, even when the database
        # does not say so: the root disks say so.
        monkeypatch.setattr(image_cache, 'images_in_use',
                            lambda context, host: set())
        # (Other tests' unused images go too: the aio is shared.)
        removed = image_cache.manage(ctx, manager)
        assert dropped.id in removed and kept.id not in removed
        monkeypatch.undo()
        assert os.path.exists(sh.cached(kept.id))
        assert not os.path.exists(sh.cached(dropped.id))
        assert sh.domain_state(first.id) == 'running'

        user.conn.compute.delete_server(first)
        user.wait_gone(first.id)
        assert kept.id not in image_cache.manage(ctx, manager)
        user.conn.compute.delete_server(second)
        user.wait_gone(second.id)
        assert kept.id in image_cache.manage(ctx, manager)
        assert not os.path.exists(sh.cached(kept.id))
        # A removed image is downloaded again when a server needs it.
        sh.boot_image(user, kept)
        assert os.path.exists(sh.cached(kept.id))
    finally:
        CONF.clear_override('remove_unused_original_minimum_age_seconds',
                            group='image_cache')


def test_delete_overtakes_a_build_from_an_image(cloud):
    user = cloud.project()
    image = image_helpers.upload(user.conn,
                                 helpers.disk_bytes(size=32 * MiB))
    server = sh.boot_image(user, image, wait=False)
    user.conn.compute.delete_server(server)
    user.wait_gone(server.id)
    assert sh.domain_state(server.id) is None
    assert not os.path.exists(os.path.dirname(sh.root_disk(server.id)))
    assert sh.leftovers(image.id) == []


def test_a_restart_fails_a_build_it_interrupted(cloud):
    user = cloud.project()
    image = image_helpers.upload(user.conn, helpers.disk_bytes())
    server = sh.boot_image(user, image)
    # As if tether-compute died after it had started the guest, before
    # it recorded it.
    user.aio.restart_compute_service(lambda: db_instances.update(
        helpers.admin_context(), server.id,
        {'vm_state': 'building', 'task_state': 'spawning'}))
    shown = user.wait_server(server.id, 'ERROR')
    assert 'interrupted by a restart' in shown.fault['message']
    assert sh.domain_state(server.id) is None
    assert not os.path.exists(os.path.dirname(sh.root_disk(server.id)))
    # The cached image stays for the next server.
    assert os.path.exists(sh.cached(image.id))
