"""``openstack volume set --type`` (python-openstackclient) retypes, as
a user types it."""

from tests.functional import cli as cli_mod
from tests.functional import helpers
from tests.functional.volume import retype_helpers as rh


def test_volume_set_type(aio, wait, tmp_path):
    http = aio.http(version=rh.LATEST)
    cli = cli_mod.CLI(aio, tmp_path, http.user, http.project)
    first, second = rh.vtype(aio), rh.vtype(aio)
    volume = helpers.create_volume(http, volume_type=first['name'],
                                   wait_for=wait, name='cli-retype')
    cli.run('volume', 'set', '--type', second['name'], 'cli-retype')
    assert cli.json('volume', 'show', 'cli-retype')['type'] == second['name']
    cli.run('volume', 'set', '--type', first['name'], '--retype-policy',
            'on-demand', volume['id'])
    assert rh.shown(http, volume['id'])['volume_type'] == first['name']
