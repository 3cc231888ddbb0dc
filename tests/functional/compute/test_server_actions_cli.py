"""The server actions of the Nova conformance issue as users call them:
the ``openstack`` CLI's ``server lock/unlock``, ``pause/unpause``,
``suspend/resume``, ``rescue/unrescue`` against a real guest (QEMU
under libvirt), and
``server create --user-data``."""

import base64

import pytest

from tests.functional import cli
from tests.functional import helpers
from tests.functional import image_helpers
from tests.functional.compute import server_helpers as sh


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def test_lock_pause_suspend_with_the_cli(cloud, tmp_path):
    user = cloud.project()
    server = user.boot()
    osc = cli.CLI(user.aio, tmp_path, user.user, user.project)

    def status():
        shown = osc.json('--os-compute-api-version', '2.73', 'server',
                         'show', server.id)
        return shown['status'], shown['locked'], shown['locked_reason']

    osc.run('--os-compute-api-version', '2.73', 'server', 'lock',
            '--reason', 'maintenance', server.id)
    assert status() == ('ACTIVE', True, 'maintenance')
    osc.run('server', 'unlock', server.id)
    assert status() == ('ACTIVE', False, None)

    osc.run('server', 'pause', server.id)
    user.wait_server(server.id, 'PAUSED')
    osc.run('server', 'unpause', server.id)
    user.wait_server(server.id, 'ACTIVE')

    osc.run('server', 'suspend', server.id)
    user.wait_server(server.id, 'SUSPENDED')
    osc.run('server', 'resume', server.id)
    user.wait_server(server.id, 'ACTIVE')
    events = osc.json('server', 'event', 'list', server.id)
    actions = [a['Action'] for a in events]
    for name in ('lock', 'unlock', 'pause', 'unpause', 'suspend', 'resume'):
        assert name in actions, (name, actions)


def test_user_data_and_addresses_with_the_cli(cloud, tmp_path):
    """``server create --user-data FILE`` (the CLI base64-encodes it):
    an administrator sees it; the server has no addresses."""
    user = cloud.project()
    image = image_helpers.upload(cloud.admin().conn, helpers.disk_bytes(),
                                 visibility='public')
    script = tmp_path / 'user-data.sh'
    script.write_bytes(b'#!/bin/sh\necho from the cli\n')
    osc = cli.CLI(user.aio, tmp_path, user.user, user.project)
    server = osc.json('server', 'create', '--image', image.id, '--flavor',
                      'm1.nano', '--nic', 'none', '--user-data',
                      str(script), 'osc-user-data')
    user.track(server['id'])
    shown = cloud.admin().server(server['id'], '2.3')
    assert base64.b64decode(shown['OS-EXT-SRV-ATTR:user_data']) == \
        script.read_bytes()
    user.wait_server(server['id'])
    assert osc.json('server', 'show', server['id'])['addresses'] in ({}, '')


def test_rescue_and_unrescue_with_the_cli(cloud, tmp_path):
    """``openstack server rescue --image IMG`` and ``server unrescue``
    on a server booted from an image."""
    user = cloud.project()
    own, rescue_image = (image_helpers.upload(user.conn,
                                              helpers.disk_bytes(words))
                         for words in (b'cli own', b'cli rescue'))
    server = sh.boot_image(user, own)
    osc = cli.CLI(user.aio, tmp_path, user.user, user.project)
    osc.run('server', 'rescue', '--image', rescue_image.id, server.id)
    user.wait_server(server.id, 'RESCUE')
    assert osc.json('server', 'show', server.id)['status'] == 'RESCUE'
    osc.run('server', 'unrescue', server.id)
    user.wait_server(server.id, 'ACTIVE')
    actions = [a['Action'] for a in osc.json('server', 'event', 'list',
                                             server.id)]
    assert actions[:2] == ['unrescue', 'rescue'], actions
