"""The policy matrix: every operation of both APIs (from the route
tables) x every persona, against the real APIs with the real policy;
the expected statuses are in matrix.txt.

Per row, the refused calls run first and must leave project A as it was;
then the allowed ones, destructive ones on throwaway resources. No
response to project B or to the service role may show an ID of project
A that its request did not name.
"""

from oslo_serialization import jsonutils
import pytest

from tests.functional.policy import operations
from tests.functional.policy import table

ROWS = table.load()
# Personas that must see nothing of project A (admins see every project).
OUTSIDERS = ('mB', 'rB', 'svc')


def test_the_table_has_every_operation_once():
    declared = table.declared_operations()
    rows = [table.base_operation(name) for name in ROWS]
    missing = sorted(set(declared) - set(rows))
    unknown = sorted(set(rows) - set(declared))
    assert not missing, 'operations without a row: %s' % missing
    assert not unknown, 'rows of no route: %s' % unknown
    assert set(operations.SPECS) <= set(ROWS)


def snapshot(world):
    """What project A has, as an administrator sees it."""
    admin, cadmin = world.http('aA'), world.http('aA', 'compute')
    project = world.projects['A']
    ids = world.ids

    def get(http, path, key):
        resp = http.get(path)
        assert resp.status_code == 200, resp.text
        return resp.json()[key]

    volumes = get(admin, '/volumes/detail?all_tenants=1&project_id=%s'
                  % project, 'volumes')
    mine = {v['id'] for v in volumes}
    # The shared volumes whole; of the others (throwaway ones settle on
    # their own time), only that no volume the matrix does not know of
    # appeared.
    shared = {ids['volume_id'], ids['reserved_id'], ids['attached_id']}
    known = {v for _c, v in world.volumes} | set(world.group_volumes) | {
        i for _a, kind, i in world.created if kind == 'volume'}
    servers = get(cadmin, '/servers/detail?all_tenants=1&project_id=%s'
                  % project, 'servers')
    return {
        'volumes': sorted((v['id'], v['status'], v['size'], v['name'],
                           sorted(v['metadata'].items()),
                           len(v['attachments'])) for v in volumes
                          if v['id'] in shared),
        'unknown volumes': sorted(mine - known),
        'attachments': sorted(
            (a['id'], a['status']) for a in get(
                admin, '/attachments?all_tenants=1', 'attachments')
            if a['volume_id'] in mine),
        'quota': get(admin, '/os-quota-sets/%s' % project, 'quota_set'),
        'compute quota': get(cadmin, '/os-quota-sets/%s' % project,
                             'quota_set'),
        'backup': sorted((b['id'], b['status'], b['name'])
                         for b in get(admin, '/backups/detail?all_tenants=1'
                                      '&project_id=%s' % project, 'backups')
                         if b['id'] == ids['backup_id']),
        'groups': sorted(
            (g['id'], g['name'], g['status']) for g in get(
                admin, '/groups/detail?all_tenants=1', 'groups')
            if g['project_id'] == project and g['id'] in (
                ids['group_id'], ids['empty_group_id'])),
        'group snapshot': sorted(
            (s['id'], s['name'], s['status']) for s in get(
                admin, '/group_snapshots/detail?all_tenants=1',
                'group_snapshots')
            if s['id'] == ids['group_snapshot_id']),
        'group type': get(admin, '/group_types/%s/group_specs'
                          % ids['group_type_id'], 'group_specs'),
        'default type': get(admin, '/default-types/%s' % project,
                            'default_type'),
        'type': (get(admin, '/types/%s' % ids['type_id'], 'volume_type'),
                 get(admin, '/types/%s/extra_specs' % ids['type_id'],
                     'extra_specs')),
        'servers': sorted((s['id'], s['name'], s['status'],
                           s['OS-EXT-STS:task_state']) for s in servers
                          if s['id'] == ids['server_id']),
        'unknown servers': sorted({s['id'] for s in servers} -
                                  set(world.servers)),
        'shares': get(cadmin, '/servers/%s/shares' % ids['server_id'],
                      'shares'),
        'metadata': get(cadmin, '/servers/%s/metadata'
                        % ids['metadata_server_id'], 'metadata'),
        'keypairs': get(cadmin, '/os-keypairs?user_id=%s'
                        % ids['keypair_user_id'], 'keypairs'),
        'flavors': sorted(f['id'] for f in get(cadmin, '/flavors/detail',
                                               'flavors')),
        'flavor extra specs': get(cadmin, '/flavors/%s/os-extra_specs'
                                  % ids['specs_flavor_id'], 'extra_specs'),
        'flavor access': get(cadmin, '/flavors/%s/os-flavor-access'
                             % ids['access_flavor_id'], 'flavor_access'),
        'services': sorted((s['id'], s['status']) for s in get(
            cadmin, '/os-services', 'services')),
        'server groups': sorted(
            (g['id'], tuple(g['members'])) for g in get(
                cadmin, '/os-server-groups?all_projects=1', 'server_groups')
            if g['project_id'] == project),
        'aggregate': get(cadmin, '/os-aggregates/%s' % ids['aggregate_id'],
                         'aggregate'),
        'aggregates': sorted(a['id'] for a in get(cadmin, '/os-aggregates',
                                                  'aggregates')),
        'image': _image(world, ids['project_image_id']),
    }


def _image(world, image_id):
    """Project A's image as the image API shows an administrator."""
    resp = world.aio.admin().image.get('/images/%s' % image_id)
    assert resp.status_code == 200, resp.text
    return resp.json()


def call(world, name, column, allowed):
    api, method, path, body = operations.request(name, world, allowed)
    resp = world.http(column, api).request(method, path, json=body,
                                           headers=operations.headers(name))
    made = operations.created(name, resp)
    if made:
        world.created.append((api,) + made)
    if column in OUTSIDERS:
        sent = path + jsonutils.dumps(body)
        shown = [i for i in world.a_ids() if i in resp.text and i not in sent]
        assert not shown, '%s as %s shows project A\'s %s: %s' % (
            name, column, shown, resp.text)
    return resp


@pytest.mark.parametrize('name', list(ROWS))
def test_matrix(world, name):
    expected = ROWS[name]
    got, texts = {}, {}
    refused = [c for c in table.COLUMNS if expected[c] >= 300]
    before = snapshot(world)
    for column in refused:
        resp = call(world, name, column, allowed=False)
        got[column], texts[column] = resp.status_code, resp.text[:200]
    assert snapshot(world) == before, (
        '%s changed project A as one of %s' % (name, refused))
    for column in table.COLUMNS:
        if column not in refused:
            resp = call(world, name, column, allowed=True)
            got[column], texts[column] = resp.status_code, resp.text[:200]
    wrong = {c: (expected[c], got[c], texts[c]) for c in table.COLUMNS
             if got[c] != expected[c]}
    assert not wrong, '%s: persona: (expected, got, body) %s' % (name,
                                                                 wrong)
