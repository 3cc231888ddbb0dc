"""The compute API's samples of servers and their actions
(doc/api_samples/compute/), replayed."""

import os

from oslo_config import cfg
import pytest

from tests.functional.api_samples import servers
from tests.functional.compute import server_helpers as sh
from tests.functional import helpers
from tests.functional import image_helpers

VERSION = servers.VERSION


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def test_the_servers_story(cloud):
    user, story, server_id = servers.boot(cloud, 'server-create')
    path = '/servers/%s' % server_id
    story.exchange('server-show', 'GET', path, version=VERSION)
    story.exchange('servers-list', 'GET', '/servers', version=VERSION)
    story.exchange('servers-list-detail', 'GET', '/servers/detail',
                   version=VERSION)
    story.exchange('server-update', 'PUT', path, {
        'server': {'name': 'web-1', 'description': 'the front end'}},
        version=VERSION)
    story.exchange('server-delete', 'DELETE', path, version=VERSION)
    user.wait_gone(server_id)


def _act(story, name, server_id, body):
    return story.exchange(name, 'POST', '/servers/%s/action' % server_id,
                          body, version=VERSION)


def test_the_server_actions_story(cloud):
    user, story, server_id = servers.boot(cloud)
    _act(story, 'server-action-stop', server_id, {'os-stop': None})
    user.wait_server(server_id, 'SHUTOFF')
    _act(story, 'server-action-start', server_id, {'os-start': None})
    user.wait_server(server_id)
    _act(story, 'server-action-reboot', server_id,
         {'reboot': {'type': 'HARD'}})
    user.wait_server(server_id)
    _act(story, 'server-action-lock', server_id,
         {'lock': {'locked_reason': 'maintenance'}})
    _act(story, 'server-action-unlock', server_id, {'unlock': None})
    _act(story, 'server-action-pause', server_id, {'pause': None})
    user.wait_server(server_id, 'PAUSED')
    _act(story, 'server-action-unpause', server_id, {'unpause': None})
    user.wait_server(server_id)

    # What a guest printed (one without an OS prints nothing).
    with open(os.path.join(cfg.CONF.instances_path, server_id,
                           'console.log'), 'ab') as f:
        f.write(b'Debian GNU/Linux 12 web ttyS0\r\n\r\nweb login: \r\n')
    _act(story, 'server-action-console-output', server_id,
         {'os-getConsoleOutput': {'length': 2}})

    actions = story.exchange('instance-actions-list', 'GET',
                             '/servers/%s/os-instance-actions' % server_id,
                             version=VERSION)['instanceActions']
    (create,) = [a for a in actions if a['action'] == 'create']
    story.exchange('instance-action-show', 'GET',
                   '/servers/%s/os-instance-actions/%s' % (
                       server_id, create['request_id']), version=VERSION)


def _image(user, name, **properties):
    """An image (with no operating system) of the user's project."""
    return image_helpers.upload(user.conn, helpers.disk_bytes(
        name.encode()), name=name, **properties)


def test_the_server_rescue_and_suspend_story(cloud):
    user, story, server_id = servers.boot(cloud)
    # A volume-backed server is rescued (from 2.87) from an image that
    # says how to attach it.
    rescue = _image(user, 'rescue', hw_rescue_bus='scsi',
                    hw_rescue_device='disk')
    story.subs['image_id'] = rescue.id
    _act(story, 'server-action-rescue', server_id, {'rescue': {
        'adminPass': 'Rescue-pass-1', 'rescue_image_ref': rescue.id}})
    user.wait_server(server_id, 'RESCUE')
    _act(story, 'server-action-unrescue', server_id, {'unrescue': None})
    user.wait_server(server_id)
    _act(story, 'server-action-suspend', server_id, {'suspend': None})
    user.wait_server(server_id, 'SUSPENDED')
    _act(story, 'server-action-resume', server_id, {'resume': None})
    user.wait_server(server_id)


def test_the_server_rebuild_story(cloud):
    """A volume-backed server rebuilt with another image (from 2.93): its
    root volume is re-imaged."""
    user, story, server_id = servers.boot(cloud)
    image = _image(user, 'debian-12')
    story.subs['image_id'] = image.id
    _act(story, 'server-action-rebuild', server_id, {'rebuild': {
        'imageRef': image.id, 'name': 'web-2',
        'adminPass': 'Rebuild-pass-1', 'metadata': {'role': 'backend'},
        'description': 'rebuilt with Debian 12'}})
    user.wait_server(server_id)
    volume = user.show_volume(story.subs['volume_id'])
    assert volume['volume_image_metadata']['image_id'] == image.id


def test_the_server_image_story(cloud):
    """A volume-backed server snapshotted into an image (an image of its
    volumes' snapshots), and a server with a local root disk backed up."""
    user, story, server_id = servers.boot(cloud)
    answer = _act(story, 'server-action-create-image', server_id, {
        'createImage': {'name': 'web-snapshot',
                        'metadata': {'purpose': 'before the upgrade'}}})
    user.wait(lambda: user.conn.image.get_image(
        answer['image_id']).status == 'active', what='the snapshot image')
    base = _image(user, 'debian-12')
    local = sh.boot_image(user, base)
    story.subs['server_id'] = local.id
    answer = _act(story, 'server-action-create-backup', local.id, {
        'createBackup': {'name': 'web-daily', 'backup_type': 'daily',
                         'rotation': 7,
                         'metadata': {'purpose': 'nightly'}}})
    user.wait_server(local.id)
    user.wait(lambda: user.conn.image.get_image(
        answer['image_id']).status == 'active', what='the backup image')
