"""The volume API's samples of the flag actions (os-set_bootable,
os-update_readonly_flag), replayed."""

from tests.functional.api_samples import samples
from tests.functional import helpers

VERSION = '3.71'


def test_the_volume_flags_story(aio, wait):
    http = aio.http(version=VERSION)
    volume = helpers.create_volume(http, wait_for=wait)
    story = samples.Samples('volume', http, volume_id=volume['id'])
    path = '/volumes/%s/action' % volume['id']
    story.exchange('volume-set-bootable', 'POST', path, {
        'os-set_bootable': {'bootable': True}}, version=VERSION)
    story.exchange('volume-update-readonly-flag', 'POST', path, {
        'os-update_readonly_flag': {'readonly': True}}, version=VERSION)
    shown = http.get('/volumes/%s' % volume['id']).json()['volume']
    assert shown['bootable'] == 'true'
    assert shown['metadata'] == {'readonly': 'True'}
