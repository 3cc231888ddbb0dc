"""Rebuilds that fail (the volume API refusing, a re-image failing or not
answering in time) and races (two rebuilds, a delete or a restart of
tether-compute during the wait), with the real volume service, Glance
and guests (rebuild_helpers.py has what the rebuild tests share)."""

import contextlib
import io
import os
import time

from oslo_concurrency import lockutils
import pytest
from tests.functional.compute import rebuild_helpers
from tests.functional.compute.rebuild_helpers import (
    CONF, FLAVOR, MiB, TINY_A, TINY_B, V2_93, booted_from_image,
    no_os_image, rebuild, volume_from)
from tests.functional import guest_console
from tests.functional import helpers
from tests.functional import image_helpers

from tether.cmd.glance import child as glance_child
from tether import images


# The fixtures of rebuild_helpers.
cloud = rebuild_helpers.cloud
tiny = rebuild_helpers.tiny


# Failures ----------------------------------------------------------------

@contextlib.contextmanager
def holding_the_host(server_id):
    """The compute host's lock of the server (tether-compute runs in this
    process): its rebuild waits until the block ends."""
    with lockutils.lock('tether-instance-%s' % server_id):
        yield


def _the_volume_api_fails_the_reimage(user, server, image_id, break_it):
    """Rebuild ``server`` with ``image_id``; ``break_it`` runs once the
    compute API accepted it and before the host asks for the re-image,
    which the volume API then answers with an error. The rebuild's
    actions fail, and the server is back as it was, with no fault."""
    with holding_the_host(server.id):
        resp = rebuild(user, server.id, image_id)
        assert resp.status_code == 202, resp.text
        break_it()
    action = user.wait_events(
        server.id, resp.headers['x-openstack-request-id'], [
            ('compute_reimage_boot_volume', 'Error'),
            ('compute_rebuild_instance', 'Error')])
    assert action['message'] == 'Error'
    shown = user.wait_server(server.id)
    assert (shown.status, shown.task_state, shown.fault) == (
        'ACTIVE', None, None)


def _root_as_it_was(user, server, root_id, image_id, usages, notifications):
    """The root volume in use by the server alone, of ``image_id``, with
    one attachment; the project's quota ``usages`` (volume, compute)
    unchanged; the rebuild notified as started and failed."""
    volume = user.show_volume(root_id)
    assert volume['status'] == 'in-use'
    assert volume['volume_image_metadata']['image_id'] == image_id
    assert [a['server_id'] for a in volume['attachments']] == [server.id]
    assert len(user.attachments(root_id)) == 1
    assert (helpers.usage(user.project), user.compute_usage()) == usages
    sent = [m['event_type'] for m in notifications()
            if m['payload'].get('instance_id') == server.id]
    assert sent == ['instance.rebuild.start', 'instance.rebuild.error']


def test_a_reimage_the_volume_api_refuses_puts_the_server_back(
        cloud, tiny, notifications):
    """The image is deactivated after the compute API looked at it and
    before the host asks for the re-image: the volume API refuses (400),
    the root volume is as it was, and so is the server."""
    user = cloud.project()
    admin = cloud.admin()
    image = admin.conn.image.create_image(
        name='soon-inactive', data=io.BytesIO(helpers.disk_bytes(b'b')),
        disk_format='raw', container_format='bare', visibility='public')
    root = volume_from(user, tiny[TINY_A])
    server = user.boot(root, flavor=FLAVOR)
    console = guest_console.GuestConsole(user.conn, server)
    console.wait_up(TINY_A)
    assert console.command('tether-guest stamp-write kept')[0] == 0
    usages = helpers.usage(user.project), user.compute_usage()
    _the_volume_api_fails_the_reimage(
        user, server, image.id,
        lambda: admin.conn.image.deactivate_image(image))
    console.wait_up(TINY_A)
    _, bootdisk, _ = console.wait_word('BOOTDISK')
    assert bootdisk['stamps'] == 'kept'
    _root_as_it_was(user, server, root['id'], tiny[TINY_A], usages,
                    notifications)
    admin.conn.image.delete_image(image)


@pytest.fixture
def image_api_gone(aio):
    """A call puts the image API tether's services reach at a port where
    nothing listens (Glance stopped, as far as they can tell), for the
    rest of the test; the aio's Glance itself keeps running."""
    with helpers.repointed('image', images.PEER) as point:
        yield lambda: point('http://127.0.0.1:%d/v2'
                            % glance_child.free_port())


def test_a_reimage_the_volume_api_fails_puts_the_server_back(
        cloud, image_api_gone, notifications):
    """The image API stops answering after the compute API looked at the
    image and before the host asks for the re-image: the volume API
    answers os-reimage with 503 (it cannot read the image), the root
    volume is as it was, the server is back as it was, and the quota
    usage too."""
    user = cloud.project()
    server, root = booted_from_image(user)
    image = no_os_image(user.conn, b'unreachable')
    usages = helpers.usage(user.project), user.compute_usage()
    _the_volume_api_fails_the_reimage(user, server, image, image_api_gone)
    _root_as_it_was(user, server, root['id'],
                    root['volume_image_metadata']['image_id'], usages,
                    notifications)


def test_a_reimage_that_fails_is_error_at_once_and_a_rebuild_fixes_it(
        cloud, aio, tiny, guest_images):
    """The image's data in Glance's store no longer matches its hash:
    the volume service fails the re-image and says so at once
    (volume-reimaged, failed), so the server is in ERROR long before
    [DEFAULT] reimage_timeout_per_gb; once the cause is fixed (the data
    back, the root volume reset to reserved), a rebuild works."""
    CONF.set_override('reimage_timeout_per_gb', 120)
    user = cloud.project()
    admin = cloud.admin()
    with open(guest_images[TINY_B], 'rb') as f:
        good = f.read()
    image = admin.conn.image.create_image(
        name='breaks', data=io.BytesIO(good), disk_format='raw',
        container_format='bare', visibility='public')
    stored = os.path.join(aio.impl.glance.state_dir, 'images', image.id)
    root = volume_from(user, tiny[TINY_A])
    server = user.boot(root, flavor=FLAVOR)
    usage = helpers.usage(user.project)
    compute_usage = user.compute_usage()
    with open(stored, 'r+b') as f:
        f.seek(MiB)
        f.write(b'broken')
    started = time.monotonic()
    resp = rebuild(user, server.id, image.id)
    assert resp.status_code == 202, resp.text
    shown = user.wait_server(server.id, 'ERROR')
    assert time.monotonic() - started < 60
    assert 'with status failed' in shown.fault['message']
    volume = user.show_volume(root['id'])
    assert volume['status'] == 'error'
    assert len(user.attachments(root['id'])) == 1
    assert helpers.usage(user.project) == usage
    assert user.compute_usage() == compute_usage

    with open(stored, 'wb') as f:
        f.write(good)
    resp = admin.volumes('3.71').post(
        '/volumes/%s/action' % root['id'],
        json={'os-reset_status': {'status': 'reserved'}})
    assert resp.status_code == 202, resp.text
    resp = rebuild(user, server.id, image.id)
    assert resp.status_code == 202, resp.text
    user.wait_server(server.id)
    guest_console.GuestConsole(user.conn, server).wait_up(TINY_B)
    assert user.show_volume(root['id'])['volume_image_metadata'][
        'image_id'] == image.id
    assert len(user.attachments(root['id'])) == 1
    admin.conn.image.delete_image(image)
    CONF.clear_override('reimage_timeout_per_gb')


def test_a_reimage_that_does_not_answer_in_time(cloud, aio, wait):
    """The volume service is slow (its image source is): the rebuild
    gives up after reimage_timeout_per_gb x 1 GiB (never 0 s) and the
    server is in ERROR; when the volume service is done it re-images the
    volume (nobody waits any more), and a rebuild works again."""
    CONF.set_override('reimage_timeout_per_gb', 1)
    user = cloud.project()
    server, root = booted_from_image(user)
    image = no_os_image(user.conn, b'second')
    usage = helpers.usage(user.project)
    compute_usage = user.compute_usage()
    with image_helpers.fed_slowly(aio, image) as (entered, release):
        try:
            resp = rebuild(user, server.id, image)
            assert resp.status_code == 202, resp.text
            shown = user.wait_server(server.id, 'ERROR')
            assert ('did not answer with volume-reimaged within 1 seconds'
                    in shown.fault['message'])
            assert user.show_volume(root['id'])['status'] == 'downloading'
            wait(entered, what='the re-image reading the image')
        finally:
            CONF.clear_override('reimage_timeout_per_gb')
        release()
        volume = user.wait_volume(root['id'], 'reserved')
    assert volume['volume_image_metadata']['image_id'] == image
    resp = rebuild(user, server.id, image)
    assert resp.status_code == 202, resp.text
    user.wait_server(server.id)
    assert user.show_volume(root['id'])['status'] == 'in-use'
    assert len(user.attachments(root['id'])) == 1
    assert helpers.usage(user.project) == usage
    assert user.compute_usage() == compute_usage


# Races -------------------------------------------------------------------

def test_two_rebuilds_at_once(cloud):
    user = cloud.project()
    server, root = booted_from_image(user)
    image = no_os_image(user.conn, b'racing')
    usage = helpers.usage(user.project)
    compute_usage = user.compute_usage()
    results = helpers.race([lambda: rebuild(user, server.id, image)
                            for _ in range(2)])
    assert sorted(r.status_code for r in results) == [202, 409], [
        r.text for r in results]
    user.wait_server(server.id)
    assert user.show_volume(root['id'])['volume_image_metadata'][
        'image_id'] == image
    # The loser left nothing behind: one attachment (the winner's new
    # one), and the quota as it was.
    assert len(user.attachments(root['id'])) == 1
    assert helpers.usage(user.project) == usage
    assert user.compute_usage() == compute_usage
    actions = user.compute(V2_93).get(
        '/servers/%s/os-instance-actions' % server.id).json()
    assert [a['action'] for a in actions['instanceActions']] == [
        'rebuild', 'create']


def test_a_delete_during_the_reimage_wait(cloud, aio, wait):
    """The delete ends the wait; the server goes, its root volume comes
    back available with no attachment (once the volume service is
    done)."""
    CONF.set_override('reimage_timeout_per_gb', 120)
    user = cloud.project()
    server, root = booted_from_image(user)
    image = no_os_image(user.conn, b'deleted')
    usage = helpers.usage(user.project)
    compute_usage = user.compute_usage()
    flavor = user.server(server.id)['flavor']
    with image_helpers.fed_slowly(aio, image) as (entered, release):
        try:
            resp = rebuild(user, server.id, image)
            assert resp.status_code == 202, resp.text
            wait(entered, what='the re-image reading the image')
            started = time.monotonic()
            user.conn.compute.delete_server(server)
            user.wait_gone(server.id)
            assert time.monotonic() - started < 60
        finally:
            CONF.clear_override('reimage_timeout_per_gb')
        release()
        user.wait_volume(root['id'], 'available')
    user.assert_free(root['id'])
    # The root volume was kept (not deleted on termination): it still
    # counts, and nothing else does; the server no longer counts.
    assert helpers.usage(user.project) == usage
    assert user.compute_usage() == dict(
        compute_usage, instances=compute_usage['instances'] - 1,
        cores=compute_usage['cores'] - flavor['vcpus'],
        ram=compute_usage['ram'] - flavor['ram'])


def test_a_restart_of_tether_compute_during_the_wait(cloud, aio, wait):
    """The instance settles in ERROR (never stuck rebuilding), and a
    rebuild brings it back."""
    CONF.set_override('reimage_timeout_per_gb', 120)
    user = cloud.project()
    server, root = booted_from_image(user)
    image = no_os_image(user.conn, b'restarted')
    usage = helpers.usage(user.project)
    compute_usage = user.compute_usage()
    with image_helpers.fed_slowly(aio, image) as (entered, release):
        try:
            resp = rebuild(user, server.id, image)
            assert resp.status_code == 202, resp.text
            wait(entered, what='the re-image reading the image')
            assert user.server(server.id)['OS-EXT-STS:task_state'] == \
                'rebuilding'
            aio.restart_compute_service()
            shown = user.wait_server(server.id, 'ERROR')
            assert 'interrupted by a restart of tether-compute' in \
                shown.fault['message']
        finally:
            CONF.clear_override('reimage_timeout_per_gb')
        release()
        user.wait_volume(root['id'], 'reserved')
    resp = rebuild(user, server.id, image)
    assert resp.status_code == 202, resp.text
    user.wait_server(server.id)
    assert len(user.attachments(root['id'])) == 1
    assert helpers.usage(user.project) == usage
    assert user.compute_usage() == compute_usage
