"""Manila shares attached to servers (``/servers/{id}/shares``, 2.97)
with everything real: tether-aio's API and compute service, a real
Manila on a one-node Ceph (the session's ``manila`` fixture), libvirt,
QEMU, virtiofsd, ceph-fuse, and the tiny Linux guest, which mounts the
share's tag from inside.

The compute service reaches Manila as tether-compute does, from its
``[share]`` options (noauth: the endpoint and the service's token); the
host reports file-backed guest memory (``[libvirt] file_backed_memory``)
so that it has both traits a share needs. The refusals the API decides
before it asks Manila anything are in
tests/functional/compute/test_server_shares_api.py.
"""

import io
import logging
import os
import socket
import subprocess
import threading
import uuid
from xml.etree import ElementTree

from keystoneauth1 import session as ks_session
from keystoneauth1 import token_endpoint
import openstack
from oslo_config import cfg
import pytest

from tests.functional.compute import server_helpers as sh
from tests.functional import guest_console
from tests.functional import helpers
from tests.functional.share import manila_helpers as mh
from tether.compute import share_client
from tether.db.compute import share_mapping as db_shares

pytestmark = pytest.mark.slow

CONF = cfg.CONF
V2_97 = '2.97'
TINY = 'tether-tiny-a'
# m1.micro (128 MiB): the tiny guest's kernel needs more than 64.
FLAVOR = '2'


@pytest.fixture
def cloud(shares_aio, aio, wait):
    yield from sh.cloud_fixture(aio, wait)


@pytest.fixture(scope='module')
def tiny(aio, guest_images):
    admin = aio.admin()
    with open(guest_images[TINY], 'rb') as f:
        image = admin.image.create_image(
            name='%s-%s' % (TINY, uuid.uuid4().hex[:6]), data=f,
            disk_format='raw', container_format='bare', visibility='public')
    return image.id


def _mappings(server_id):
    return db_shares.get_by_instance(helpers.admin_context(), server_id)


def _status(user, server_id, share_id):
    resp = user.compute(V2_97).get('/servers/%s/shares/%s'
                                   % (server_id, share_id))
    if resp.status_code == 404:
        return None
    assert resp.status_code == 200, resp.text
    return resp.json()['share']['status']


def _wait_status(user, server_id, share_id, status):
    mh.wait(lambda: _status(user, server_id, share_id) == status, 60,
            'share %s of %s to be %s' % (share_id, server_id, status))


def _access_tos(service_sfs, share_id):
    """Who the share's rules grant, as the service sees them (the locks
    hide tether's ``access_to`` from everyone else)."""
    return {r.access_to for r in service_sfs.access_rules(
        service_sfs.get_share(share_id))}


def _stopped(user, volume=None, flavor='1'):
    server = user.boot(volume, flavor=flavor)
    user.conn.compute.stop_server(server)
    return user.wait_server(server.id, 'SHUTOFF')


def _host_mount(share_id):
    """Whether the aio's host has the share mounted (/proc/self/mounts:
    a FUSE mount that died still shows there)."""
    path = os.path.join(CONF.libvirt.share_mount_point_base, share_id)
    with open('/proc/self/mounts') as f:
        return any(line.split()[1] == path for line in f)


def ceph_fuse(export, name, key, mount_point):
    """``ceph-fuse`` of the share at ``export`` on ``mount_point`` as
    ``client.<name>`` with ``key`` (a keyring file of mode 0600 beside
    it); the finished process."""
    os.makedirs(mount_point)
    keyring = mount_point + '.keyring'
    fd = os.open(keyring, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, 'w') as f:
        f.write('[client.%s]\n\tkey = %s\n' % (name, key))
    mons, path = export.rsplit(':/', 1)
    return subprocess.run(
        ['ceph-fuse', '-c', '/dev/null', '-m',
         ','.join('v1:' + m for m in mons.split(',')), '--id', name,
         '--keyring', keyring, '--client_mount_timeout', '10',
         '-r', '/' + path, mount_point],
        timeout=60, capture_output=True, text=True)


class CephClient:
    """A second CephFS client of the share, with a cephx rule of its own:
    what another user of the share writes and reads."""

    def __init__(self, shares, share, export, workdir):
        name = 'tester-%s' % uuid.uuid4().hex[:6]
        sfs = shares.sfs
        rule = sfs.create_access_rule(share.id, access_type='cephx',
                                      access_to=name, access_level='rw')
        rule = mh.wait(lambda: next(
            (r for r in sfs.access_rules(share)
             if r.id == rule.id and r.state == 'active'), None), 60,
            'the tester rule to be active')
        self.dir = os.path.join(workdir, 'mnt')
        proc = ceph_fuse(export, name, rule.access_key, self.dir)
        assert proc.returncode == 0, proc.stderr

    def path(self, name):
        return os.path.join(self.dir, name)

    def unmount(self):
        subprocess.run(['umount', self.dir], timeout=30)


def test_a_cephfs_share_used_inside_the_guest(cloud, shares, shares_aio,
                                              tiny, tmp_path, caplog):
    """Attach to a stopped server, start it, and the guest mounts the
    tag, reads what another client wrote, writes what that client reads;
    stop unmounts; detach revokes the host's rule and Manila's locks go,
    and the export location is in no log line of it all."""
    caplog.set_level(logging.DEBUG)
    user = cloud.project()
    share, export = shares.create()
    tester = CephClient(shares, share, export, str(tmp_path))
    try:
        with open(tester.path('hello.txt'), 'w') as f:
            f.write('written by another client\n')
        root = helpers.create_volume(user.volumes('3.71'), size=1,
                                     imageRef=tiny, wait_for=user.wait)
        user.cloud.volumes.append((user, root['id']))
        server = _stopped(user, root, flavor=FLAVOR)

        attached = user.conn.compute.create_share_attachment(
            server, share.id, tag='data')
        assert (attached.share_id, attached.tag) == (share.id, 'data')
        assert attached.status in ('attaching', 'inactive')
        _wait_status(user, server.id, share.id, 'inactive')
        # The host's rule: tether's cephx identity, locked by the
        # service (the user cannot see its key or remove it).
        rules = shares.rules(share.id)
        assert CONF.share.cephfs_access_to in _access_tos(shares_aio,
                                                          share.id)
        [host_key] = [r.access_key for r in shares_aio.access_rules(
            shares_aio.get_share(share.id))
            if r.access_to == CONF.share.cephfs_access_to]
        assert len(rules) == 2
        # The share cannot be deleted while attached.
        with pytest.raises(openstack.exceptions.ForbiddenException):
            shares.sfs.delete_share(share.id)

        # What the user sees, and what an admin sees.
        [listed] = user.conn.compute.share_attachments(server)
        assert (listed.share_id, listed.tag) == (share.id, 'data')
        shown = user.compute(V2_97).get('/servers/%s/shares/%s' % (
            server.id, share.id)).json()['share']
        assert shown == {'share_id': share.id, 'status': 'inactive',
                         'tag': 'data'}
        admin_view = cloud.admin().compute(V2_97).get(
            '/servers/%s/shares/%s' % (server.id, share.id)).json()['share']
        assert admin_view['export_location'] == export
        assert admin_view['uuid'] == _mappings(server.id)[0].uuid

        user.conn.compute.start_server(server)
        user.wait_server(server.id)
        assert _status(user, server.id, share.id) == 'active'
        assert _host_mount(share.id)
        console = guest_console.GuestConsole(user.conn, server)
        console.wait_up(TINY)
        rc, out = console.command('tether-guest share data')
        assert rc == 0, out
        rc, out = console.command('cat /mnt/data/hello.txt')
        assert (rc, out) == (0, ['written by another client'])
        rc, out = console.command(
            'echo from the guest > /mnt/data/guest.txt && sync')
        assert rc == 0, out
        mh.wait(lambda: os.path.exists(tester.path('guest.txt')), 30,
                "the guest's file to reach the other client")
        with open(tester.path('guest.txt')) as f:
            assert f.read() == 'from the guest\n'

        user.conn.compute.stop_server(server)
        user.wait_server(server.id, 'SHUTOFF')
        assert _status(user, server.id, share.id) == 'inactive'
        assert not _host_mount(share.id)

        user.conn.compute.delete_share_attachment(server, share.id)
        mh.wait(lambda: _status(user, server.id, share.id) is None, 60,
                'the share to be detached')
        assert CONF.share.cephfs_access_to not in _access_tos(shares_aio,
                                                              share.id)
        # The host's key is revoked: a mount with it is refused.
        refused = ceph_fuse(export, CONF.share.cephfs_access_to, host_key,
                            str(tmp_path / 'revoked'))
        if refused.returncode == 0:     # leave no mount behind
            subprocess.run(['umount', str(tmp_path / 'revoked')],
                           timeout=30)
        assert refused.returncode != 0, refused.stdout
        assert not _host_mount(share.id)
        locks = list(shares.sfs.resource_locks(resource_id=share.id))
        assert locks == []
        actions = [a.action for a in
                   user.conn.compute.server_actions(server)]
        assert {'attach_share', 'detach_share'} <= set(actions)
    finally:
        tester.unmount()
    # tether's API and compute service run in threads of their own here;
    # the test's own clients (which log the bodies they get, as a user's
    # would) in the main thread.
    main = threading.main_thread().ident
    tethers = [r.getMessage() for r in caplog.records if r.thread != main]
    assert any('Share %s is attached' % share.id in m for m in tethers)
    path = export.rsplit(':/', 1)[1]
    assert [m for m in tethers if path in m] == []


def _ceph_fuse_count(share_id):
    path = os.path.join(CONF.libvirt.share_mount_point_base, share_id)
    out = subprocess.run(['pgrep', '-f', 'ceph-fuse .* %s$' % path],
                         capture_output=True, text=True).stdout
    return len(out.split())


def test_two_servers_share_one_mount_and_one_rule(cloud, shares,
                                                  shares_aio, notifications):
    """The host mounts a share once for all its servers, unmounts it when
    the last of them stops, and keeps its rule until the last detach."""
    user = cloud.project()
    share, _export = shares.create()
    first, second = _stopped(user), _stopped(user)
    for server in (first, second):
        resp = user.compute(V2_97).post(
            '/servers/%s/shares' % server.id,
            json={'share': {'share_id': share.id}})
        assert resp.status_code == 201, resp.text
        # The tag defaults to the share's ID.
        assert resp.json()['share']['tag'] == share.id
        _wait_status(user, server.id, share.id, 'inactive')

    for server in (first, second):
        user.conn.compute.start_server(server)
        user.wait_server(server.id)
        assert _status(user, server.id, share.id) == 'active'
    assert _ceph_fuse_count(share.id) == 1

    user.conn.compute.stop_server(first)
    user.wait_server(first.id, 'SHUTOFF')
    assert _status(user, first.id, share.id) == 'inactive'
    assert _host_mount(share.id), 'unmounted while the second runs'
    user.conn.compute.stop_server(second)
    user.wait_server(second.id, 'SHUTOFF')
    assert not _host_mount(share.id)

    user.conn.compute.delete_share_attachment(first, share.id)
    mh.wait(lambda: _status(user, first.id, share.id) is None, 60,
            'the first detach')
    assert CONF.share.cephfs_access_to in _access_tos(shares_aio, share.id)
    user.conn.compute.delete_share_attachment(second, share.id)
    mh.wait(lambda: _status(user, second.id, share.id) is None, 60,
            'the second detach')
    assert CONF.share.cephfs_access_to not in _access_tos(shares_aio,
                                                          share.id)
    # Each attach and detach told of its start and end, with the share's
    # ID and tag and never where the share is.
    sent = [m for m in notifications()
            if m['event_type'].startswith('instance.share_')]
    for server in (first, second):
        assert [m['event_type'] for m in sent
                if m['payload']['instance_id'] == server.id] == [
            'instance.share_attach.start', 'instance.share_attach.end',
            'instance.share_detach.start', 'instance.share_detach.end']
    assert all(m['payload']['share_id'] == share.id and
               m['payload']['tag'] == share.id and
               'export_location' not in m['payload'] for m in sent)


def test_what_manila_refuses_and_races(cloud, shares):
    user = cloud.project()
    server = _stopped(user)
    http = user.compute(V2_97)
    unknown = str(uuid.uuid4())
    resp = _attach(http, server.id, unknown)
    assert resp.status_code == 404, resp.text
    assert unknown in sh.message(resp)

    cifs, _ = shares.create(protocol='CIFS', share_type='default')
    resp = _attach(http, server.id, cifs.id)
    assert resp.status_code == 409, resp.text
    assert sh.message(resp) == (
        'Share %s cannot be attached: its protocol is CIFS; a server '
        'mounts NFS or CEPHFS shares' % cifs.id)
    assert _mappings(server.id) == []

    nfs, _ = shares.create(protocol='NFS')
    other, _ = shares.create(protocol='NFS')
    # Two attaches of one share at once: one wins, one gets 409.
    answers = _at_once(
        first=lambda: _attach(http, server.id, nfs.id, tag='same'),
        second=lambda: _attach(http, server.id, nfs.id, tag='same'))
    assert sorted(r.status_code for r in answers.values()) == [201, 409], [
        r.text for r in answers.values()]
    # Another share under a tag the server has: 409.
    resp = _attach(http, server.id, other.id, tag='same')
    assert resp.status_code == 409, resp.text
    assert sh.message(resp) == ('Server %s already has a share with the '
                                'tag same.' % server.id)
    _wait_status(user, server.id, nfs.id, 'inactive')
    assert [m.share_id for m in _mappings(server.id)] == [nfs.id]
    resp = _attach(http, server.id, nfs.id, tag='again')
    assert resp.status_code == 409, resp.text
    assert 'already attached' in sh.message(resp)


def _attach(http, server_id, share_id, **extra):
    return http.post('/servers/%s/shares' % server_id,
                     json={'share': dict(share_id=share_id, **extra)})


@pytest.mark.skipif(os.path.exists('/sbin/mount.nfs'),
                    reason='this host has an NFS client: the fake export '
                           'of the dummy backend could take minutes to fail')
def test_a_share_that_cannot_be_mounted_fails_the_start(cloud, shares):
    """The dummy backend's NFS exports do not exist: the mount fails for
    real. The server is ERROR with a fault naming the share, the mapping
    in error with the reason; a detach still works from there."""
    user = cloud.project()
    server = _stopped(user)
    nfs, export = shares.create(protocol='NFS')
    assert _attach(user.compute(V2_97), server.id, nfs.id,
                   tag='nfs').status_code == 201
    _wait_status(user, server.id, nfs.id, 'inactive')
    user.conn.compute.start_server(server)
    failed = user.wait_server(server.id, 'ERROR')
    assert nfs.id in failed.fault['message']
    assert export not in failed.fault['message']
    [mapping] = _mappings(server.id)
    assert mapping.status == 'error' and mapping.reason
    assert not _host_mount(nfs.id)
    user.conn.compute.delete_share_attachment(server, nfs.id)
    mh.wait(lambda: _status(user, server.id, nfs.id) is None, 60,
            'the detach from a server in error')


def test_deleting_a_server_releases_its_shares(cloud, shares, shares_aio):
    user = cloud.project()
    server = _stopped(user)
    share, _ = shares.create(protocol='NFS')
    assert _attach(user.compute(V2_97), server.id, share.id).status_code \
        == 201
    _wait_status(user, server.id, share.id, 'inactive')
    assert len(_access_tos(shares_aio, share.id)) == 1
    user.conn.compute.delete_server(server)
    user.wait_gone(server.id)
    assert _mappings(server.id) == []
    mh.wait(lambda: not _access_tos(shares_aio, share.id), 30,
            'the rule of the deleted server to go')


def test_manila_down_during_attach_ends_in_error(cloud, shares,
                                                 monkeypatch, notifications):
    """Manila is down for the compute host (its client points at a
    closed port; the API's read of the share went to the real Manila):
    the mapping ends in error with the reason, never stuck attaching,
    and the attach_share action records the error."""
    user = cloud.project()
    server = _stopped(user)
    share, _ = shares.create(protocol='NFS')
    with socket.socket() as closed:   # a port no one listens on
        closed.bind(('127.0.0.1', 0))
        dead = 'http://127.0.0.1:%d' % closed.getsockname()[1]

    def down(context):
        sess = ks_session.Session(auth=token_endpoint.Token(dead, 'x'))
        conn = openstack.connection.Connection(
            session=sess, shared_file_system_endpoint_override=dead)
        return share_client.ShareClient(conn.shared_file_system, None)
    monkeypatch.setattr(share_client, 'as_service', down)
    resp = _attach(user.compute(V2_97), server.id, share.id)
    assert resp.status_code == 201, resp.text
    _wait_status(user, server.id, share.id, 'error')
    [mapping] = _mappings(server.id)
    assert dead in mapping.reason, mapping.reason

    def action():
        return user.instance_action(server.id,
                                    resp.headers['x-openstack-request-id'])
    # The mapping's error is stored inside the action's event, whose end
    # is recorded just after; the error notification comes last.
    mh.wait(lambda: all(e['result'] for e in action()['events']), 10,
            'the event of the attach to end')
    assert action()['action'] == 'attach_share'
    assert [(e['event'], e['result']) for e in action()['events']] == [
        ('compute_allow_share', 'Error')]

    def errors():
        return [m for m in notifications()
                if m['event_type'] == 'instance.share_attach.error']
    mh.wait(errors, 10, 'the error notification')
    [error] = errors()
    assert error['payload']['share_id'] == share.id
    assert error['priority'] == 'ERROR' and error['payload']['error']
    monkeypatch.undo()
    user.conn.compute.delete_share_attachment(server, share.id)
    mh.wait(lambda: _status(user, server.id, share.id) is None, 60,
            'the detach of a share in error')


def test_a_restart_finishes_what_its_last_run_left(aio, cloud, shares,
                                                   shares_aio):
    """tether-compute stopped with an attach stored but never granted
    (its cast lost) and a detach never revoked: at start it settles
    both from Manila's truth."""
    user = cloud.project()
    server = _stopped(user)
    granted, _ = shares.create(protocol='NFS')
    lost, lost_export = shares.create(protocol='NFS')
    assert _attach(user.compute(V2_97), server.id, granted.id,
                   tag='granted').status_code == 201
    _wait_status(user, server.id, granted.id, 'inactive')
    ctx = helpers.admin_context()

    def while_down():
        db_shares.create(ctx, server.id, lost.id, 'lost', lost_export,
                         'NFS', ('stopped',))
        assert db_shares.transition(ctx, server.id, granted.id,
                                    ('inactive',), 'detaching')

    aio.restart_compute_service(while_down=while_down)
    _wait_status(user, server.id, lost.id, 'inactive')
    mh.wait(lambda: _status(user, server.id, granted.id) is None, 60,
            'the detach left under way to finish')
    assert _access_tos(shares_aio, lost.id) == {
        CONF.my_shared_fs_storage_ip}
    assert _access_tos(shares_aio, granted.id) == set()


def _share_ready_server(user, shares, tag='data'):
    """A stopped server with a CephFS share attached (inactive)."""
    server = _stopped(user)
    share, _ = shares.create()
    attached = user.conn.compute.create_share_attachment(server, share.id,
                                                         tag=tag)
    assert attached.status == 'attaching'
    _wait_status(user, server.id, share.id, 'inactive')
    return server, share


def test_a_rebuild_keeps_the_shares(cloud, shares):
    """The server never leaves its host: its shares are mounted again
    when the rebuilt guest starts."""
    user = cloud.project()
    image = user.conn.image.create_image(
        name='no-os-' + uuid.uuid4().hex[:6],
        data=io.BytesIO(helpers.disk_bytes(b'no os')), disk_format='raw',
        container_format='bare')
    server = sh.boot_image(user, image)
    user.conn.compute.stop_server(server)
    user.wait_server(server.id, 'SHUTOFF')
    share, _ = shares.create()
    user.conn.compute.create_share_attachment(server, share.id, tag='keep')
    _wait_status(user, server.id, share.id, 'inactive')
    user.conn.compute.start_server(server)
    user.wait_server(server.id)
    assert _status(user, server.id, share.id) == 'active'

    resp = user.action(server.id, {'rebuild': {'imageRef': image.id}},
                       V2_97)
    assert resp.status_code == 202, resp.text
    user.wait_server(server.id)
    kept = user.conn.compute.get_share_attachment(server, share.id)
    assert (kept.status, kept.tag) == ('active', 'keep')
    assert _host_mount(share.id)
    assert [f[1] for f in _guest_filesystems(server.id)] == ['keep']


def _guest_filesystems(server_id):
    """(source, tag) of the virtio-fs devices of the server's guest."""
    xml = sh.virsh('dumpxml', sh.domain(server_id)).stdout
    root = ElementTree.fromstring(xml)
    return [(fs.find('source').get('dir'), fs.find('target').get('dir'))
            for fs in root.iter('filesystem')]


def _at_once(**calls):
    """Run the ``calls`` in threads released together; {name: answer}."""
    answers = {}
    barrier = threading.Barrier(len(calls))

    def run(name, call):
        barrier.wait()
        answers[name] = call()
    threads = [threading.Thread(target=run, args=item)
               for item in calls.items()]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return answers


def test_an_attach_racing_a_start(cloud, shares):
    """An attach and a start of one stopped server at once: either the
    attach is refused (the start came first), or the server starts with
    the share mounted (the start finishes the attach) - never a running
    server with a share it does not have."""
    user = cloud.project()
    server = _stopped(user)
    share, _ = shares.create()
    http = user.compute(V2_97)
    answers = _at_once(
        attach=lambda: _attach(http, server.id, share.id, tag='race'),
        start=lambda: user.action(server.id, {'os-start': None}))
    assert answers['start'].status_code == 202, answers['start'].text
    user.wait_server(server.id)
    if answers['attach'].status_code == 409:
        assert _mappings(server.id) == []
        assert _guest_filesystems(server.id) == []
    else:
        assert answers['attach'].status_code == 201, answers['attach'].text
        assert _status(user, server.id, share.id) == 'active'
        assert [f[1] for f in _guest_filesystems(server.id)] == ['race']
        assert _host_mount(share.id)


def test_a_detach_racing_a_delete(cloud, shares, shares_aio):
    """A detach and a delete of the server at once: whichever wins, the
    server and its mapping are gone and the host's rule is revoked."""
    user = cloud.project()
    server, share = _share_ready_server(user, shares)
    http = user.compute(V2_97)
    answers = _at_once(
        detach=lambda: http.delete('/servers/%s/shares/%s'
                                   % (server.id, share.id)),
        delete=lambda: http.delete('/servers/%s' % server.id))
    assert answers['delete'].status_code == 204, answers['delete'].text
    assert answers['detach'].status_code in (200, 404, 409), \
        answers['detach'].text
    user.wait_gone(server.id)
    assert _mappings(server.id) == []
    mh.wait(lambda: CONF.share.cephfs_access_to not in _access_tos(
        shares_aio, share.id), 30, 'the rule to be revoked')
    assert not _host_mount(share.id)
