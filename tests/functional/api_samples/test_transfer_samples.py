"""The volume API's samples of volume transfers under both paths
(doc/api_samples/volume/), replayed: an offer, its lists, its show, its
acceptance by another project, and a cancelled one."""

import pytest

from tests.functional.api_samples import samples
from tests.functional import helpers

# (path, sample name prefix, version): the legacy path at 3.0 and the
# new one at the latest version.
PATHS = [('/os-volume-transfer', 'os-volume-transfer', '3.0'),
         ('/volume-transfers', 'volume-transfer', '3.71')]


@pytest.mark.parametrize('path,prefix,version', PATHS)
def test_the_transfers_story(aio, wait, path, prefix, version):
    giver, taker = aio.http(version=version), aio.http(version=version)
    volume = helpers.create_volume(giver, wait_for=wait)
    story = samples.Samples('volume', giver, volume_id=volume['id'])
    made = story.exchange(prefix + '-create', 'POST', path, {
        'transfer': {'volume_id': volume['id'], 'name': 'to-ops'}},
        version=version)['transfer']
    shown = samples.Samples('volume', giver, volume_id=volume['id'],
                            transfer_id=made['id'])
    one = '%s/%s' % (path, made['id'])
    shown.exchange(prefix + 's-list', 'GET', path, version=version)
    shown.exchange(prefix + 's-list-detail', 'GET', path + '/detail',
                   version=version)
    shown.exchange(prefix + '-show', 'GET', one, version=version)
    accept = samples.Samples('volume', taker, volume_id=volume['id'],
                             transfer_id=made['id'],
                             auth_key=made['auth_key'])
    accept.exchange(prefix + '-accept', 'POST', one + '/accept',
                    {'accept': {'auth_key': made['auth_key']}},
                    version=version)

    other = helpers.create_volume(giver, wait_for=wait)
    resp = giver.post(path, json={'transfer': {'volume_id': other['id']}})
    assert resp.status_code == 202, resp.text
    cancelled = resp.json()['transfer']['id']
    samples.Samples('volume', giver, transfer_id=cancelled).exchange(
        prefix + '-delete', 'DELETE', '%s/%s' % (path, cancelled),
        version=version)
    for http, volume_id in ((taker, volume['id']), (giver, other['id'])):
        assert http.delete('/volumes/%s' % volume_id).status_code == 202
