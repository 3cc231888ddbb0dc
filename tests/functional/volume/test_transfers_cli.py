"""``openstack volume transfer request ...`` (python-openstackclient)
against the aio, as two users of two projects type it."""

from tests.functional import cli as cli_mod
from tests.functional import helpers
from tests.functional.volume import snapshot_helpers as sh


def test_transfer_request_commands(aio, wait, tmp_path):
    giver_http, taker_http = aio.http(), aio.http()
    (tmp_path / 'giver').mkdir()
    (tmp_path / 'taker').mkdir()
    giver = cli_mod.CLI(aio, tmp_path / 'giver', giver_http.user,
                        giver_http.project)
    taker = cli_mod.CLI(aio, tmp_path / 'taker', taker_http.user,
                        taker_http.project)
    volume = helpers.create_volume(giver_http, wait_for=wait, name='cli-tv')
    snapshot = sh.snapshot(giver_http, volume['id'], wait_for=wait)

    # Cancelled first: the volume is available again.
    made = giver.json('volume', 'transfer', 'request', 'create',
                      '--name', 'first', 'cli-tv')
    assert made['volume_id'] == volume['id'] and made['auth_key']
    listed = giver.json('volume', 'transfer', 'request', 'list')
    assert [(t['ID'], t['Name'], t['Volume']) for t in listed] == [
        (made['id'], 'first', volume['id'])]
    shown = giver.json('volume', 'transfer', 'request', 'show', 'first')
    assert shown['id'] == made['id'] and 'auth_key' not in shown
    # (OSC's delete sends what it is given: an ID, not a name.)
    giver.run('volume', 'transfer', 'request', 'delete', made['id'])
    assert giver.json('volume', 'transfer', 'request', 'list') == []
    assert giver.json('volume', 'show', 'cli-tv')['status'] == 'available'

    # Then given, without its snapshot.
    made = giver.json('volume', 'transfer', 'request', 'create',
                      '--no-snapshots', 'cli-tv')
    taken = taker.json('volume', 'transfer', 'request', 'accept',
                       '--auth-key', made['auth_key'], made['id'])
    assert (taken['id'], taken['volume_id']) == (made['id'], volume['id'])
    shown = taker.json('volume', 'show', 'cli-tv')
    assert shown['status'] == 'available'
    assert shown['os-vol-tenant-attr:tenant_id'] == taker_http.project
    assert giver.json('volume', 'list') == []
    assert [s['ID'] for s in giver.json('volume', 'snapshot', 'list')] == [
        snapshot['id']]
    assert sh.usage(taker_http.project) == {
        'volumes': 1, 'gigabytes': 1, 'snapshots': 0}
    assert sh.usage(giver_http.project) == {
        'volumes': 0, 'gigabytes': 1, 'snapshots': 1}
