"""``openstack volume group type|group|group snapshot ...``
(python-openstackclient) and openstacksdk's block_storage group calls
against the aio, as a user types and writes them."""

from tests.functional import cli as cli_mod
from tests.functional import helpers
from tests.functional.volume import group_helpers as gh

V = ('--os-volume-api-version', '3.14')


def _get(row, key):
    """A field of the CLI's output, whichever way its columns are
    written ('group_type', 'Group Type')."""
    norm = {k.lower().replace(' ', '_'): v for k, v in row.items()}
    return norm[key]


def test_group_commands(aio, wait, tmp_path):
    admin = cli_mod.CLI(aio, tmp_path, 'admin', 'admin', roles=['admin'])
    gtype = admin.json('volume', *V, 'group', 'type', 'create',
                       '--description', 'cli', 'cli-gtype')
    assert (_get(gtype, 'name'), _get(gtype, 'is_public')) == (
        'cli-gtype', True)
    admin.run('volume', *V, 'group', 'type', 'set', '--property',
              'consistent_group_snapshot_enabled=<is> True',
              '--description', 'changed', 'cli-gtype')
    shown = admin.json('volume', *V, 'group', 'type', 'show', 'cli-gtype')
    assert _get(shown, 'description') == 'changed'
    assert 'consistent_group_snapshot_enabled' in str(shown)
    assert 'cli-gtype' in [_get(t, 'name') for t in admin.json(
        'volume', *V, 'group', 'type', 'list')]
    vtype = gh.volume_type(aio.http('admin', 'admin', version=gh.VERSION))

    http = aio.http(version=gh.VERSION)
    cli = cli_mod.CLI(aio, tmp_path, http.user, http.project)
    made = cli.json('volume', *V, 'group', 'create', '--volume-group-type',
                    'cli-gtype', '--volume-type', vtype['name'],
                    '--name', 'cli-group', '--description', 'first')
    assert _get(made, 'name') == 'cli-group'
    made_id = _get(made, 'id')
    wait(lambda: _get(cli.json('volume', *V, 'group', 'show', 'cli-group'),
                      'status') == 'available', what='group available')
    volume = gh.volume(http, made_id, vtype['id'], wait)
    other = helpers.create_volume(http, wait_for=wait,
                                  volume_type=vtype['id'], name='loose')
    cli.run('volume', *V, 'group', 'add', 'volume', 'cli-group', 'loose')
    assert http.get('/volumes/%s' % other['id']).json()['volume'][
        'group_id'] == made_id
    cli.run('volume', *V, 'group', 'remove', 'volume', 'cli-group',
            'loose')
    cli.run('volume', *V, 'group', 'set', '--name', 'renamed', 'cli-group')
    listed = cli.json('volume', *V, 'group', 'list')
    assert [_get(g, 'name') for g in listed] == ['renamed']

    snap = cli.json('volume', *V, 'group', 'snapshot', 'create',
                    '--name', 'cli-gsnap', 'renamed')
    assert _get(snap, 'name') == 'cli-gsnap'
    wait(lambda: _get(cli.json('volume', *V, 'group', 'snapshot', 'show',
                               'cli-gsnap'), 'status') == 'available',
         what='group snapshot available')
    assert [_get(s, 'name') for s in cli.json(
        'volume', *V, 'group', 'snapshot', 'list')] == ['cli-gsnap']
    copy = cli.json('volume', *V, 'group', 'create', '--group-snapshot',
                    'cli-gsnap', '--name', 'from-snap')
    copy_id = _get(copy, 'id')
    wait(lambda: _get(cli.json('volume', *V, 'group', 'show', copy_id),
                      'status') == 'available',
         what='group made of the snapshot')
    cli.run('volume', *V, 'group', 'delete', '--force', copy_id)
    gh.wait_gone(http, '/groups/%s' % copy_id, wait)
    cli.run('volume', *V, 'group', 'snapshot', 'delete', 'cli-gsnap')
    wait(lambda: cli.json('volume', *V, 'group', 'snapshot', 'list') == [],
         what='group snapshot deleted')
    cli.run('volume', *V, 'group', 'delete', '--force', 'renamed')
    gh.wait_gone(http, '/groups/%s' % made_id, wait)
    gh.wait_gone(http, '/volumes/%s' % volume['id'], wait)
    admin.run('volume', *V, 'group', 'type', 'delete', 'cli-gtype')


def test_group_calls_of_openstacksdk(aio, wait):
    admin = aio.admin()
    gtype = admin.block_storage.create_group_type(
        name=gh.name('sdk'), group_specs={'k': 'v'})
    assert admin.block_storage.get_group_type(gtype.id).group_specs == {
        'k': 'v'}
    admin.block_storage.update_group_type_group_specs_property(
        gtype, 'k', 'v2')
    assert admin.block_storage.fetch_group_type_group_specs(
        gtype).group_specs == {'k': 'v2'}
    vtype = admin.block_storage.create_type(name=gh.name('sdk-vtype'))

    user = aio.sdk()
    group = user.block_storage.create_group(
        name='sdk-group', group_type=gtype.id, volume_types=[vtype.id])
    group = user.block_storage.wait_for_status(group, 'available',
                                               interval=0.05, wait=30)
    assert group.volume_types == [vtype.id]
    volume = user.block_storage.create_volume(
        size=1, volume_type=vtype.id, group_id=group.id)
    user.block_storage.wait_for_status(volume, 'available', interval=0.05,
                                       wait=30)
    assert [g.id for g in user.block_storage.groups()] == [group.id]
    snapshot = user.block_storage.create_group_snapshot(
        name='sdk-gsnap', group_id=group.id)
    snapshot = user.block_storage.wait_for_status(
        snapshot, 'available', interval=0.05, wait=30)
    assert user.block_storage.get_group_snapshot(snapshot.id).name == \
        'sdk-gsnap'
    assert [s.id for s in user.block_storage.group_snapshots()] == [
        snapshot.id]
    user.block_storage.delete_group_snapshot(snapshot)
    user.block_storage.wait_for_delete(snapshot, interval=0.05, wait=30)
    admin.block_storage.reset_group_state(group, 'error')
    assert user.block_storage.get_group(group.id).status == 'error'
    user.block_storage.delete_group(group, delete_volumes=True)
    user.block_storage.wait_for_delete(group, interval=0.05, wait=30)
    admin.block_storage.delete_group_type(gtype)
