"""The volume API's sample of the revert action (3.40), replayed."""

from tests.functional.api_samples import samples
from tests.functional import helpers
from tests.functional.volume import snapshot_helpers as sh

VERSION = '3.71'


def test_the_volume_revert_story(aio, wait):
    http = aio.http(version=VERSION)
    volume = helpers.create_volume(http, wait_for=wait)
    snapshot = sh.snapshot(http, volume['id'], wait_for=wait)
    story = samples.Samples('volume', http, volume_id=volume['id'],
                            snapshot_id=snapshot['id'])
    story.exchange('volume-revert', 'POST',
                   '/volumes/%s/action' % volume['id'],
                   {'revert': {'snapshot_id': snapshot['id']}},
                   version=VERSION)
    helpers.wait_until_status(http, volume['id'], 'available', wait)
    sh.wait_status(http, snapshot['id'], 'available', wait)
