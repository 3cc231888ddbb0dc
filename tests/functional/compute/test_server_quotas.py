"""The instances, cores and ram quotas of servers: a create over a limit
of the project (or of its user) is refused with Nova's 403 and leaves
nothing made; a deleted server gives its quota back; two creates racing
for the last instance, one wins; openstacksdk's quota calls."""

import uuid

import pytest

from tests.functional.compute import server_helpers as sh
from tests.functional import helpers
from tether.compute import instance_state
from tether.compute import quota_exception
from tether import context as t_context
from tether.db.compute import instance_action as db_actions
from tether.db.compute import instance as db_instances

LATEST = '2.97'


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def _set(cloud, project, user_id=None, expect=200, version=LATEST,
         **limits):
    path = '/os-quota-sets/%s' % project.project
    if user_id:
        path += '?user_id=%s' % user_id
    resp = cloud.admin().compute(version).put(path,
                                              json={'quota_set': limits})
    assert resp.status_code == expect, resp.text
    return resp


def _in_use(project, user_id=None):
    path = '/os-quota-sets/%s/detail' % project.project
    if user_id:
        path += '?user_id=%s' % user_id
    resp = project.compute(LATEST).get(path)
    assert resp.status_code == 200, resp.text
    quota_set = resp.json()['quota_set']
    return {r: quota_set[r]['in_use'] for r in ('instances', 'cores', 'ram')}


def _create(project, volume, **server):
    return project.compute(LATEST).post(
        '/servers', json=sh.server_body(volume['id'], **server))


def _refused(project, volume, message, **server):
    """A create over quota: 403 with ``message``, and the volume it was
    to boot from as it was (no attachment made, none left)."""
    resp = _create(project, volume, **server)
    assert resp.status_code == 403, resp.text
    assert sh.message(resp) == message
    project.assert_free(volume['id'])


def test_the_instances_quota_and_a_delete_giving_it_back(cloud):
    project = cloud.project()
    _set(cloud, project, instances=1)
    server = project.boot()
    assert _in_use(project) == {'instances': 1, 'cores': 1, 'ram': 64}
    volume = project.volume()
    _refused(project, volume, 'Quota exceeded for instances: Requested 1, '
             'but already used 1 of 1 instances')
    assert _in_use(project) == {'instances': 1, 'cores': 1, 'ram': 64}
    project.conn.compute.delete_server(server.id)
    project.wait_gone(server.id)
    assert _in_use(project) == {'instances': 0, 'cores': 0, 'ram': 0}
    project.boot(volume)
    assert _in_use(project) == {'instances': 1, 'cores': 1, 'ram': 64}


def test_the_cores_and_ram_quotas(cloud):
    project = cloud.project()
    _set(cloud, project, ram=100)
    volume = project.volume()
    # m1.micro has 128 MiB.
    _refused(project, volume, 'Quota exceeded for ram: Requested 128, but '
             'already used 0 of 100 ram', flavorRef='2')
    project.boot(volume)  # m1.nano: 64 MiB
    other = project.volume()
    _refused(project, other, 'Quota exceeded for ram: Requested 64, but '
             'already used 64 of 100 ram')
    # Every resource over its limit is named, in order.
    _set(cloud, project, instances=1, cores=1, ram=64)
    _refused(project, other, 'Quota exceeded for cores, instances, ram: '
             'Requested 1, 1, 64, but already used 1, 1, 64 of 1, 1, 64 '
             'cores, instances, ram')
    # A limit of -1 is none.
    _set(cloud, project, instances=-1, cores=-1, ram=-1)
    project.boot(other)
    assert _in_use(project) == {'instances': 2, 'cores': 2, 'ram': 128}


def test_a_server_in_error_counts_until_it_is_deleted(cloud):
    project = cloud.project()
    admin = cloud.admin().compute(LATEST)
    flavor_id = 'quota-' + uuid.uuid4().hex[:8]
    resp = admin.post('/flavors', json={'flavor': {
        'name': flavor_id, 'id': flavor_id, 'ram': 1024 * 1024,
        'vcpus': 1, 'disk': 0}})
    assert resp.status_code == 200, resp.text
    try:
        _set(cloud, project, ram=-1)
        server = project.boot(flavor=flavor_id, wait=False)
        project.wait_server(server.id, 'ERROR')
        assert _in_use(project) == {'instances': 1, 'cores': 1,
                                    'ram': 1024 * 1024}
        project.conn.compute.delete_server(server.id)
        project.wait_gone(server.id)
        assert _in_use(project) == {'instances': 0, 'cores': 0, 'ram': 0}
    finally:
        admin.delete('/flavors/%s' % flavor_id)


def test_a_users_own_limits(cloud):
    project = cloud.project()
    alice = project
    bob = sh.Project(cloud, 'user-' + uuid.uuid4().hex[:8],
                     project.project, None)
    _set(cloud, project, instances=3)
    _set(cloud, project, user_id=alice.user, instances=1)
    shown = alice.compute(LATEST).get('/os-quota-sets/%s?user_id=%s'
                                      % (project.project, alice.user))
    assert shown.json()['quota_set']['instances'] == 1
    alice.boot()
    _refused(alice, alice.volume(), 'Quota exceeded for instances: '
             'Requested 1, but already used 1 of 1 instances')
    # The other users of the project share what the project has left.
    bob.boot()
    assert _in_use(project) == {'instances': 2, 'cores': 2, 'ram': 128}
    assert _in_use(project, alice.user) == {'instances': 1, 'cores': 1,
                                            'ram': 64}
    assert _in_use(project, bob.user) == {'instances': 1, 'cores': 1,
                                          'ram': 64}
    # A user's limit is at most what the project leaves beside the other
    # users' own, and a project's at least what its users' add up to.
    resp = _set(cloud, project, user_id=alice.user, instances=4,
                expect=400)
    assert sh.message(resp) == ('Quota limit 4 for instances must be less '
                                'than or equal to 3.')
    resp = _set(cloud, project, user_id=alice.user, instances=0,
                expect=400)
    assert sh.message(resp) == (
        'Quota limit 0 for instances must be greater than or equal to '
        'already used and reserved 1.')
    resp = _set(cloud, project, instances=1, expect=400)
    assert sh.message(resp) == (
        'Quota limit 1 for instances must be greater than or equal to '
        'already used and reserved 2.')
    # force sets it all the same.
    _set(cloud, project, user_id=alice.user, instances=0, force=True)
    # Reverting the user's limits: the project's hold for it again.
    resp = cloud.admin().compute(LATEST).delete(
        '/os-quota-sets/%s?user_id=%s' % (project.project, alice.user))
    assert resp.status_code == 202
    alice.boot()
    assert _in_use(project) == {'instances': 3, 'cores': 3, 'ram': 192}


def test_two_creates_racing_for_the_last_instance_one_wins(cloud):
    project = cloud.project()
    _set(cloud, project, instances=1)
    volumes = [project.volume(), project.volume()]
    results = helpers.race([lambda v=v: _create(project, v)
                            for v in volumes])
    codes = sorted(r.status_code for r in results)
    assert codes == [202, 403], [r.text for r in results]
    for resp, volume in zip(results, volumes):
        if resp.status_code == 202:
            project.track(resp.json()['server']['id'])
            project.wait_server(resp.json()['server']['id'])
        else:
            assert sh.message(resp) == (
                'Quota exceeded for instances: Requested 1, but already '
                'used 1 of 1 instances')
            project.assert_free(volume['id'])
    assert _in_use(project) == {'instances': 1, 'cores': 1, 'ram': 64}
    assert len(list(project.conn.compute.servers())) == 1


def _values(project_id, user_id):
    instance_uuid = str(uuid.uuid4())
    return instance_uuid, {
        'uuid': instance_uuid, 'project_id': project_id, 'user_id': user_id,
        'display_name': 'racer', 'hostname': 'racer',
        'availability_zone': 'nova',
        'flavor': {'id': '1', 'name': 'm1.nano', 'memory_mb': 64,
                   'vcpus': 1, 'root_gb': 0, 'ephemeral_gb': 0, 'swap': 0,
                   'extra_specs': {}},
        'memory_mb': 64, 'vcpus': 1, 'vm_state': 'active',
        'power_state': 1, 'locked': False, 'metadata': {}, 'deleted': False}


def test_the_transaction_that_inserts_a_server_counts_it(cloud):
    """Below the API's first check: inserts racing for the last instance
    in the database (each in its own transaction), one wins; the loser
    made no row. Two deletes of one server give its quota back once."""
    project = cloud.project()
    _set(cloud, project, instances=2)
    ctx = t_context.RequestContext(user_id=project.user,
                                   project_id=project.project,
                                   roles=['member'])
    made = []

    def insert():
        instance_uuid, values = _values(project.project, project.user)
        made.append(instance_uuid)
        return instance_state.create_counted(
            ctx, values, [], [],
            db_actions.action_values(ctx, instance_uuid, 'create'))
    first = insert()
    results = helpers.race([insert] * 4)
    won = [r for r in results if not isinstance(r, Exception)]
    lost = [r for r in results if isinstance(r, Exception)]
    assert len(won) == 1, results
    assert all(isinstance(r, quota_exception.TooManyInstances)
               for r in lost), lost
    admin = helpers.admin_context()
    live = db_instances.get_all(admin, project.project)
    assert sorted(i.uuid for i in live) == sorted([first.uuid,
                                                   won[0].uuid])
    assert _in_use(project) == {'instances': 2, 'cores': 2, 'ram': 128}
    results = helpers.race([lambda: instance_state.soft_delete_counted(
        admin, first.uuid)] * 2)
    assert sorted(r is None for r in results) == [False, True], results
    assert _in_use(project) == {'instances': 1, 'cores': 1, 'ram': 64}
    instance_state.soft_delete_counted(admin, won[0].uuid)
    assert _in_use(project) == {'instances': 0, 'cores': 0, 'ram': 0}


def test_the_project_limits_of_key_pairs_and_metadata(cloud):
    project = cloud.project()
    _set(cloud, project, key_pairs=1, metadata_items=1)
    conn = project.conn
    conn.compute.create_keypair(name='one')
    resp = project.compute(LATEST).post('/os-keypairs', json={
        'keypair': {'name': 'two', 'public_key': conn.compute.get_keypair(
            'one').public_key}})
    assert resp.status_code == 403
    assert sh.message(resp) == 'Quota exceeded, too many key pairs.'
    volume = project.volume()
    resp = _create(project, volume, metadata={'a': '1', 'b': '2'})
    assert resp.status_code == 403, resp.text
    assert sh.message(resp) == 'Maximum number of metadata items exceeds 1'
    project.assert_free(volume['id'])
    server = project.boot(volume, metadata={'a': '1'})
    resp = project.compute(LATEST).post(
        '/servers/%s/metadata' % server.id, json={'metadata': {'b': '2'}})
    assert resp.status_code == 403, resp.text


def test_openstacksdk_quota_calls(cloud):
    """openstacksdk's compute proxy (the CLI's ``quota show/set
    --compute`` resolve the project in Keystone, which noauth has not:
    scripts use the SDK with a project ID)."""
    project = cloud.project()
    admin = cloud.aio.admin()
    admin.compute.update_quota_set(project.project, instances=4, cores=8,
                                   ram=4096)
    quota_set = project.conn.compute.get_quota_set(project.project)
    assert (quota_set.instances, quota_set.cores, quota_set.ram) == (
        4, 8, 4096)
    project.boot()
    used = project.conn.compute.get_quota_set(project.project, usage=True)
    assert used.usage['instances'] == 1 and used.usage['ram'] == 64
    defaults = project.conn.compute.get_quota_set_defaults(project.project)
    assert defaults.instances == 10
    limits = project.conn.compute.get_limits()
    assert (limits.absolute.instances, limits.absolute.instances_used,
            limits.absolute.total_ram_used) == (4, 1, 64)
    admin.compute.revert_quota_set(project.project)
    assert project.conn.compute.get_quota_set(project.project).instances \
        == 10
