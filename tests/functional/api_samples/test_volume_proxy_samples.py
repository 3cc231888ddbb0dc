"""The compute API's samples of its volume and snapshot proxies
(os-volumes, os-snapshots; gone after 2.35), replayed."""

import pytest

from tests.functional.api_samples import samples
from tests.functional.compute import server_helpers as sh

VERSION = '2.35'


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def test_the_volume_proxies_story(cloud):
    user = cloud.project()
    story = samples.Samples('compute', user.compute(VERSION))
    created = story.exchange('os-volumes-create', 'POST', '/os-volumes', {
        'volume': {'size': 1, 'display_name': 'data',
                   'display_description': 'a volume'}},
        version=VERSION)['volume']
    story.subs['volume_id'] = created['id']
    cloud.volumes.append((user, created['id']))
    user.wait_volume(created['id'], 'available')
    path = '/os-volumes/%s' % created['id']
    story.exchange('os-volumes-show', 'GET', path, version=VERSION)
    story.exchange('os-volumes-list', 'GET', '/os-volumes', version=VERSION)
    story.exchange('os-volumes-list-detail', 'GET', '/os-volumes/detail',
                   version=VERSION)

    snapshot = story.exchange('os-snapshots-create', 'POST', '/os-snapshots',
                              {'snapshot': {
                                  'volume_id': created['id'],
                                  'display_name': 'before',
                                  'display_description': 'a snapshot',
                                  'force': False}},
                              version=VERSION)['snapshot']
    story.subs['snapshot_id'] = snapshot['id']
    snapshot_path = '/os-snapshots/%s' % snapshot['id']
    http = user.compute(VERSION)
    user.wait(lambda: http.get(snapshot_path).json()['snapshot'][
        'status'] == 'available', what='the snapshot')
    story.exchange('os-snapshots-show', 'GET', snapshot_path,
                   version=VERSION)
    story.exchange('os-snapshots-list', 'GET', '/os-snapshots',
                   version=VERSION)
    story.exchange('os-snapshots-list-detail', 'GET', '/os-snapshots/detail',
                   version=VERSION)
    story.exchange('os-snapshots-delete', 'DELETE', snapshot_path,
                   version=VERSION)
    user.wait(lambda: http.get(snapshot_path).status_code == 404,
              what='the snapshot gone')
    story.exchange('os-volumes-delete', 'DELETE', path, version=VERSION)
    user.wait_volume_gone(created['id'])
