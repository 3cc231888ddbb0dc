"""The compute API's samples of a server's shares (``/servers/{id}/shares``,
2.97; doc/api_samples/compute/), replayed against the real Manila on a
one-node Ceph that the other share tests use (conftest.py: ``manila``,
``shares_aio``, ``shares``). They live here, beside those fixtures,
rather than in tests/functional/api_samples/.

A share is attached to a stopped server, as Nova requires; the attach
answers at once, and the compute host grants the share to itself in
Manila (``inactive``) after.
"""

import pytest

from tests.functional.api_samples import servers
from tests.functional.compute import server_helpers as sh
from tests.functional.share import manila_helpers as mh

pytestmark = pytest.mark.slow

V2_97 = '2.97'


@pytest.fixture
def cloud(shares_aio, aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def _status(http, path):
    resp = http.get(path)
    if resp.status_code == 404:
        return None
    assert resp.status_code == 200, resp.text
    return resp.json()['share']['status']


def test_the_server_shares_story(cloud, shares):
    share, _export = shares.create()
    user, story, server_id = servers.boot(cloud)
    resp = user.action(server_id, {'os-stop': None}, servers.VERSION)
    assert resp.status_code == 202, resp.text
    user.wait_server(server_id, 'SHUTOFF')
    story.subs['share_id'] = share.id
    http = user.compute(V2_97)
    path = '/servers/%s/shares' % server_id

    story.exchange('server-share-create', 'POST', path, {
        'share': {'share_id': share.id, 'tag': 'data'}}, version=V2_97)
    mh.wait(lambda: _status(http, '%s/%s' % (path, share.id)) == 'inactive',
            60, 'the share to be attached')
    story.exchange('server-shares-list', 'GET', path, version=V2_97)
    story.exchange('server-share-show', 'GET', '%s/%s' % (path, share.id),
                   version=V2_97)
    story.exchange('server-share-delete', 'DELETE',
                   '%s/%s' % (path, share.id), version=V2_97)
    mh.wait(lambda: _status(http, '%s/%s' % (path, share.id)) is None, 60,
            'the share to be detached')
