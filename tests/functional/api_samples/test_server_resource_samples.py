"""The compute API's samples of what hangs off a server: metadata,
addresses, password, volume attachments, external events
(doc/api_samples/compute/), replayed."""

import pytest

from tests.functional.api_samples import samples
from tests.functional.api_samples import servers
from tests.functional.compute import server_helpers as sh

VERSION = servers.VERSION
EVENTS_VERSION = '2.93'


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def test_the_server_metadata_story(cloud):
    _user, story, server_id = servers.boot(cloud)
    path = '/servers/%s/metadata' % server_id
    story.exchange('server-metadata-list', 'GET', path, version=VERSION)
    story.exchange('server-metadata-create', 'POST', path,
                   {'metadata': {'tier': 'gold'}}, version=VERSION)
    story.exchange('server-metadata-replace', 'PUT', path,
                   {'metadata': {'role': 'frontend', 'tier': 'silver'}},
                   version=VERSION)
    story.exchange('server-metadata-show-key', 'GET', path + '/tier',
                   version=VERSION)
    story.exchange('server-metadata-update-key', 'PUT', path + '/tier',
                   {'meta': {'tier': 'bronze'}}, version=VERSION)
    story.exchange('server-metadata-delete-key', 'DELETE', path + '/tier',
                   version=VERSION)


def test_the_server_ips_and_password_story(cloud):
    _user, story, server_id = servers.boot(cloud)
    path = '/servers/%s' % server_id
    story.exchange('server-ips-list', 'GET', path + '/ips', version=VERSION)
    # tether has no network service: a server is on no network, and the
    # addresses of one are Nova's 404 for a network it is not on.
    story.exchange('server-ips-show', 'GET', path + '/ips/private',
                   version=VERSION)
    story.exchange('server-password-show', 'GET',
                   path + '/os-server-password', version=VERSION)
    story.exchange('server-password-clear', 'DELETE',
                   path + '/os-server-password', version=VERSION)


def test_the_volume_attachments_story(cloud):
    user, story, server_id = servers.boot(cloud)
    second = user.volume()
    story.subs['attached_id'] = second['id']
    path = '/servers/%s/os-volume_attachments' % server_id
    attach = {'volumeAttachment': {'volumeId': second['id'], 'tag': 'data',
                                   'delete_on_termination': False}}
    story.exchange('volume-attachment-create', 'POST', path, attach,
                   version=VERSION)
    user.wait_volume(second['id'], 'in-use')
    story.exchange('volume-attachments-list', 'GET', path, version=VERSION)
    story.exchange('volume-attachment-show', 'GET',
                   '%s/%s' % (path, second['id']), version=VERSION)
    # From 2.85 a PUT of the attachment's own volume changes what may
    # change of it: delete_on_termination.
    story.exchange('volume-attachment-update', 'PUT',
                   '%s/%s' % (path, second['id']), {'volumeAttachment': {
                       'volumeId': second['id'],
                       'delete_on_termination': True}}, version=VERSION)
    shown = story.http.get('%s/%s' % (path, second['id'])).json()
    assert shown['volumeAttachment']['delete_on_termination'] is True
    story.exchange('volume-attachment-delete', 'DELETE',
                   '%s/%s' % (path, second['id']), version=VERSION)
    user.wait_volume(second['id'], 'available')


def test_the_server_external_events_story(cloud):
    _user, _story, server_id = servers.boot(cloud)
    service = cloud.project(roles=['service'])
    story = samples.Samples('compute', service.compute(EVENTS_VERSION),
                            server_id=server_id)
    story.exchange('server-external-events-create', 'POST',
                   '/os-server-external-events', {
                       'events': [{'name': 'network-changed',
                                   'server_uuid': server_id}]},
                   version=EVENTS_VERSION)
