"""Small helpers shared by the functional tests (no tether code replaced)."""

import contextlib
import json
import os
import subprocess
import sys
import threading

from oslo_config import cfg

from tether import context as t_context
from tether.db import session
from tether.db.volume import quota as db_quotas
from tether.db.volume import volume as db_volumes
from tether.volume import exception

GiB = 1024 ** 3
MiB = 1024 ** 2


def holder(target):
    """The PID of a process of this machine that has ``target`` open (a
    file's path, or a ``socket:[inode]``: what /proc/PID/fd links
    name), or None."""
    for pid in os.listdir('/proc'):
        if not pid.isdigit():
            continue
        fds = '/proc/%s/fd' % pid
        try:
            for fd in os.listdir(fds):
                if os.readlink(os.path.join(fds, fd)) == target:
                    return int(pid)
        except OSError:
            continue
    return None


def disk_bytes(marker=b'tether image', size=4 * MiB):
    """A raw disk with no operating system: an MBR with one partition
    (Glance checks a partition table it finds), a marker at 3 MiB."""
    data = bytearray(size)
    data[446:462] = (bytes([0x80, 0, 0, 0, 0x06, 0, 0, 0])
                     + (2048).to_bytes(4, 'little')
                     + ((size // 512) - 2048).to_bytes(4, 'little'))
    data[510:512] = b'\x55\xaa'
    data[3 * MiB:3 * MiB + len(marker)] = marker
    return bytes(data)


def virtual_size(path):
    """The virtual size qemu-img reports for a volume file, in bytes."""
    out = subprocess.run(
        ['qemu-img', 'info', '--output=json', '-U', path],
        check=True, capture_output=True, text=True).stdout
    info = json.loads(out)
    return info['virtual-size'], info['format']


def admin_context():
    return t_context.get_admin_context()


def user_context(user_id, project_id, roles=('member', 'reader')):
    """A request context of a user who is not an admin."""
    return t_context.RequestContext(user_id=user_id, project_id=project_id,
                                    roles=list(roles))


def db_volume(volume_id):
    """The volume as the database has it, or None when it is gone."""
    try:
        return db_volumes.get(admin_context(), volume_id)
    except exception.VolumeNotFound:
        return None


@session.VOLUME.writer
def _image_metadata_update(context, volume_id, metadata):
    volume = db_volumes.get(context, volume_id)
    db_volumes.image_metadata_replace_in_transaction(
        context, volume_id, dict(volume.image_metadata, **metadata))


def set_image_metadata(volume_id, metadata):
    """Add keys to a volume's image metadata, as an older release (or
    Cinder's os-set_image_metadata) may have stored them."""
    _image_metadata_update(admin_context(), volume_id, metadata)


def project_volumes(project_id):
    return db_volumes.get_all(admin_context(), project_id=project_id)


def usage(project_id):
    """{'volumes': (in_use, reserved), 'gigabytes': (in_use, reserved)}."""
    usages = db_quotas.get_usages(admin_context(), project_id)
    return {r: usages.get(r, (0, 0)) for r in ('volumes', 'gigabytes')}


def set_limits(project_id, **limits):
    db_quotas.set_project_limits(admin_context(), project_id, limits)


def create_volume(http, size=1, wait_for=None, **attrs):
    """POST /volumes over raw HTTP; wait until available when asked."""
    resp = http.post('/volumes', json={'volume': dict(size=size, **attrs)})
    assert resp.status_code == 202, resp.text
    volume = resp.json()['volume']
    if wait_for is not None:
        volume = wait_until_status(http, volume['id'], 'available', wait_for)
    return volume


def wait_until_status(http, volume_id, status, wait_for):
    def _check():
        resp = http.get('/volumes/%s' % volume_id)
        assert resp.status_code == 200, resp.text
        body = resp.json()['volume']
        assert not body['status'].startswith('error'), body
        return body if body['status'] == status else None
    return wait_for(_check, what='volume %s %s' % (volume_id, status))


def extend_waiting(volume_id, new_size):
    """The volume as an extend waiting for its compute host leaves it
    (``extending``, the gigabytes reserved, ``extend_new_size`` and
    ``extend_reservations`` in its admin metadata), through the quota and
    volume database layers, so that no compute host answers first."""
    from tether.volume import quota
    ctx = admin_context()
    row = db_volume(volume_id)
    reservations = quota.reserve(ctx, row.project_id,
                                 {'gigabytes': new_size - row.size},
                                 resource_id=volume_id)
    assert db_volumes.conditional_update(
        ctx, volume_id, {'status': 'extending',
                         'previous_status': row.status}, [row.status])
    db_volumes.admin_metadata_set(ctx, volume_id, {
        'extend_new_size': str(new_size),
        'extend_reservations': '["%s"]' % '","'.join(reservations)})
    assert db_quotas.get_reservations_for(ctx, volume_id) == reservations


def race(calls):
    """Run every zero-argument callable at once (a barrier); return results.

    An exception in a call is returned in its place, not raised.
    """
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(i, call):
        barrier.wait()
        try:
            results[i] = call()
        except Exception as exc:  # noqa: BLE001 - reported to the test
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i, c))
               for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


def run_manage(config, *args, timeout=120):
    """Run this tree's tether-manage (whatever is on PATH) with a config
    file; the CompletedProcess, output captured as text."""
    return subprocess.run(
        [sys.executable, '-c',
         'import sys; from tether.cmd import manage; '
         'sys.exit(manage.main())', '--config-file', str(config)]
        + list(args),
        capture_output=True, text=True, timeout=timeout)


def refuse_row(database, statement, table, row_id):
    """Make the real SQLite database ``database`` (session.VOLUME or
    session.COMPUTE) abort every ``statement`` ('UPDATE', 'DELETE') of
    one row of ``table``: a fault injected at the process's edge, for
    the flows that must survive a row they cannot change. The trigger's
    name, for drop_refusals."""
    name = 'tether_test_refuse_%s_%s' % (
        statement.lower(), str(row_id).replace('-', '_'))
    with database.get_engine().begin() as conn:
        conn.exec_driver_sql(
            "CREATE TRIGGER %s BEFORE %s ON %s FOR EACH ROW "
            "WHEN OLD.id = '%s' BEGIN SELECT RAISE(ABORT, "
            "'this row is broken'); END" % (name, statement, table, row_id))
    return name


def drop_refusals(database, names):
    with database.get_engine().begin() as conn:
        for name in names:
            conn.exec_driver_sql('DROP TRIGGER IF EXISTS %s' % name)


@contextlib.contextmanager
def repointed(group, peer):
    """A ``point(url)`` that has tether's services reach the peer of
    option group ``group`` (``image``, ``volume``) at ``url`` from then
    on (its ``endpoint_override``; ``peer``, its tether.clients.Peer,
    forgets its connections); the endpoint is put back at the end."""
    conf = cfg.CONF
    reached = conf[group].endpoint_override

    def point(url):
        conf.set_override('endpoint_override', url, group=group)
        peer.reset()
    try:
        yield point
    finally:
        point(reached)
