"""``openstack volume snapshot ...`` (python-openstackclient) against
the aio, as a user types it."""

from tests.functional import cli as cli_mod
from tests.functional import helpers


def test_snapshot_commands(aio, wait, tmp_path):
    http = aio.http()
    cli = cli_mod.CLI(aio, tmp_path, http.user, http.project)
    volume = helpers.create_volume(http, wait_for=wait, name='cli-vol')
    made = cli.json('volume', 'snapshot', 'create', '--volume', 'cli-vol',
                    '--description', 'first', '--property', 'k=v',
                    'cli-snap')
    assert (made['name'], made['volume_id']) == ('cli-snap', volume['id'])
    wait(lambda: cli.json('volume', 'snapshot', 'show', 'cli-snap')[
        'status'] == 'available', what='snapshot available')
    listed = cli.json('volume', 'snapshot', 'list', '--long')
    assert [(s['Name'], s['Volume'], s['Properties']) for s in listed] in (
        [('cli-snap', 'cli-vol', {'k': 'v'})],
        [('cli-snap', volume['id'], {'k': 'v'})])
    cli.run('volume', 'snapshot', 'set', '--name', 'renamed',
            '--property', 'x=y', 'cli-snap')
    shown = cli.json('volume', 'snapshot', 'show', 'renamed')
    assert shown['properties'] == {'k': 'v', 'x': 'y'}
    assert shown['size'] == 1 and shown['description'] == 'first'
    cli.run('volume', 'snapshot', 'unset', '--property', 'k', 'renamed')
    assert cli.json('volume', 'snapshot', 'show', 'renamed')[
        'properties'] == {'x': 'y'}
    cli.run('volume', 'snapshot', 'delete', 'renamed')
    wait(lambda: cli.json('volume', 'snapshot', 'list') == [],
         what='snapshot deleted')
    cli.run('volume', 'delete', 'cli-vol')
