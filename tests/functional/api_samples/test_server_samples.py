"""The compute API's samples of servers and their actions
(doc/api_samples/compute/), replayed."""

import os

from oslo_config import cfg
import pytest

from tests.functional.api_samples import servers
from tests.functional.compute import server_helpers as sh

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
