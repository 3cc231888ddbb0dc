"""A restarted tether-compute settles what changed or stopped half done.

tether-compute is stopped (the API keeps serving), guests are changed
behind its back with virsh, and crashes in the middle of an operation
are simulated by writing the states the API's claims leave through the
compute database layer (the manager that would have finished them is
down). A new ComputeService then starts, as after a crash, and the rules
of tether.compute.ops.recovery apply.
"""

import pytest

from tests.functional.compute import server_helpers as sh
from tests.functional import helpers
from tether.db.compute import instance as db_instances


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def _simulate_crash(server_id, **values):
    """Leave the instance as a claim left it when tether-compute died."""
    db_instances.update(helpers.admin_context(), server_id, values)


def test_restart_settles_guests_and_interrupted_work(cloud):
    user = cloud.project()
    aio = user.aio
    volumes = [user.volume() for _ in range(5)]
    ids = helpers.race([
        (lambda v=v: user.boot(v, wait=False).id) for v in volumes])
    for server_id in ids:
        user.wait_server(server_id)
    destroyed, stopping, stopping_gone, deleting, building = ids
    root = dict(zip(ids, (v['id'] for v in volumes)))

    def while_down():
        # A guest that died (or was stopped by someone) while no
        # tether-compute watched.
        sh.virsh('destroy', sh.domain(destroyed))
        # A stop accepted by the API whose cast was lost with the
        # manager: once with the guest still running, once gone off.
        _simulate_crash(stopping, task_state='powering-off')
        _simulate_crash(stopping_gone, task_state='powering-off')
        sh.virsh('destroy', sh.domain(stopping_gone))
        # A delete accepted, never carried out.
        _simulate_crash(deleting, task_state='deleting')
        # A build that had started the guest, not yet recorded it.
        _simulate_crash(building, vm_state='building', task_state='spawning')

    aio.restart_compute_service(while_down)

    shown = user.wait_server(destroyed, 'SHUTOFF')
    assert (shown.vm_state, shown.power_state) == ('stopped', 4)
    assert not sh.locked(aio.volume_path(root[destroyed]))
    shown = user.wait_server(stopping_gone, 'SHUTOFF')
    assert shown.vm_state == 'stopped'
    # The lost stop is settled from what the guest does: no task left,
    # the state the guest's.
    shown = user.conn.compute.get_server(stopping)
    assert shown.task_state is None
    assert (shown.status, sh.domain_state(stopping)) in (
        ('ACTIVE', 'running'), ('SHUTOFF', 'shut off'))
    # The delete is finished.
    user.wait_gone(deleting)
    assert sh.domain_state(deleting) is None
    user.assert_free(root[deleting])
    # The build is failed, cleanly.
    shown = user.server(building)
    assert (shown['status'], shown['OS-EXT-STS:task_state']) == ('ERROR',
                                                                 None)
    assert 'interrupted' in shown['fault']['message']
    assert sh.domain_state(building) is None
    user.assert_free(root[building])

    # The new tether-compute serves: the servers can be used again.
    user.conn.compute.start_server(destroyed)
    user.wait_server(destroyed, 'ACTIVE')
    assert sh.locked(aio.volume_path(root[destroyed]))
    if user.conn.compute.get_server(stopping).status == 'ACTIVE':
        user.conn.compute.stop_server(stopping)
        user.wait_server(stopping, 'SHUTOFF')
    assert not sh.locked(aio.volume_path(root[stopping]))
    # Nothing was reconciled that did not need it.
    assert user.wait_server(stopping_gone, 'SHUTOFF').task_state is None


def test_restart_leaves_settled_servers_alone(cloud):
    user = cloud.project()
    aio = user.aio
    running, stopped = user.boot(), user.boot()
    user.conn.compute.stop_server(stopped)
    user.wait_server(stopped.id, 'SHUTOFF')
    before = {s: user.server(s)['updated'] for s in (running.id, stopped.id)}
    domain_ids = sh.virsh('domid', sh.domain(running.id)).stdout

    aio.restart_compute_service()

    assert user.server(running.id)['status'] == 'ACTIVE'
    assert user.server(stopped.id)['status'] == 'SHUTOFF'
    assert {s: user.server(s)['updated'] for s in before} == before
    # The running guest is the same QEMU process.
    assert sh.virsh('domid', sh.domain(running.id)).stdout == domain_ids
    # A new boot works on the new tether-compute.
    assert user.boot().status == 'ACTIVE'


def test_restart_settles_interrupted_pauses_and_suspends(cloud):
    # The API claimed a pause or a suspend; the guest did it (or not)
    # and tether-compute died before it recorded the outcome.
    user = cloud.project()
    aio = user.aio
    ids = helpers.race([(lambda: user.boot(wait=False).id)
                        for _ in range(4)])
    for server_id in ids:
        user.wait_server(server_id)
    paused, suspended, not_paused, unpausing = ids

    def while_down():
        _simulate_crash(paused, task_state='pausing')
        sh.virsh('suspend', sh.domain(paused))
        _simulate_crash(suspended, task_state='suspending')
        sh.virsh('managedsave', sh.domain(suspended))
        _simulate_crash(not_paused, task_state='pausing')
        # An unpause whose guest was still paused.
        _simulate_crash(unpausing, vm_state='paused',
                        task_state='unpausing')
        sh.virsh('suspend', sh.domain(unpausing))

    aio.restart_compute_service(while_down)

    shown = user.wait_server(paused, 'PAUSED')
    assert (shown.vm_state, shown.power_state) == ('paused', 3)
    shown = user.wait_server(suspended, 'SUSPENDED')
    assert (shown.vm_state, shown.power_state) == ('suspended', 4)
    shown = user.wait_server(not_paused, 'ACTIVE')
    assert (shown.vm_state, shown.power_state) == ('active', 1)
    shown = user.wait_server(unpausing, 'PAUSED')
    assert shown.task_state is None

    # They are served again from there.
    user.conn.compute.resume_server(suspended)
    user.wait_server(suspended, 'ACTIVE')
    assert sh.domain_state(suspended) == 'running'
    user.conn.compute.unpause_server(unpausing)
    user.wait_server(unpausing, 'ACTIVE')
    assert sh.domain_state(unpausing) == 'running'


def test_restart_settles_interrupted_snapshots(cloud):
    # The API claimed a snapshot into an image and tether-compute died
    # while the guest was paused for the copy of its disk, or after.
    user = cloud.project()
    aio = user.aio
    ids = helpers.race([(lambda: user.boot(wait=False).id)
                        for _ in range(3)])
    for server_id in ids:
        user.wait_server(server_id)
    copying, uploading, paused_by_user = ids
    user.conn.compute.pause_server(paused_by_user)
    user.wait_server(paused_by_user, 'PAUSED')

    def while_down():
        _simulate_crash(copying, task_state='image_snapshot')
        sh.virsh('suspend', sh.domain(copying))
        _simulate_crash(uploading, task_state='image_uploading')
        _simulate_crash(paused_by_user, task_state='image_snapshot')

    aio.restart_compute_service(while_down)

    for server_id in (copying, uploading):
        shown = user.wait_server(server_id, 'ACTIVE')
        assert (shown.vm_state, shown.power_state) == ('active', 1)
        assert sh.domain_state(server_id) == 'running'
    # A guest its user paused stays paused.
    shown = user.wait_server(paused_by_user, 'PAUSED')
    assert shown.task_state is None
    assert sh.domain_state(paused_by_user) == 'paused'
