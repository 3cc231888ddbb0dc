#!/usr/bin/env python3
"""Volumes from images (and volume-backed rebuilds) against the bare
operations they are made of.

Against a tether-aio (its real Glance) over HTTP with openstacksdk, N
rounds (default 5) of:

* create-from-image of a 20 MiB and of a 1 GiB raw image (random data:
  nothing to skip): POST /volumes with imageRef until the volume is
  available; the bare operation is ``qemu-img convert -n`` of the same
  image file, already on this host, into an empty volume file;
* the floor of any create: a blank 1 GiB volume against its ``qemu-img
  create``, printed beside what 1.2x of each bare convert leaves for the
  control plane (tools/bench/README.rst);
* rebuild of a volume-backed server (``--rebuild``; the tiny test guest
  as both images, 2.93): POST rebuild until the server is ACTIVE again;
  the bare operations are that convert (of the tiny image, ``-S 0``)
  plus a libvirt power-off and start of a guest of the same shape, in
  two rows: the power-off a destroy, and (what a rebuild does, as Nova's
  does) the guest's own shutdown at its power button.

It prints, for each, the p50 of tether and of the bare operation, the
control plane's overhead in ms and as a ratio, min/max, and tether's
first round apart. It measures; it asserts nothing.

Needs root, qemu-img and (with --rebuild) libvirt and the tiny guest's
build tools (tools/install-deps.sh test).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

import aio_process  # noqa: E402
import openstack  # noqa: E402

MiB = 1024 ** 2
GiB = 1024 ** 3
SIZES = (('20 MiB', 20 * MiB), ('1 GiB', GiB))
BLANK = 'blank 1 GiB volume vs qemu-img create'


def connect(aio, project):
    return openstack.connection.Connection(
        auth_type='admin_token',
        auth={'token': 'bench:%s' % project, 'endpoint': aio.volume_url},
        block_storage_endpoint_override=aio.volume_url,
        block_storage_api_version='3',
        compute_endpoint_override=aio.compute_url, compute_api_version='2',
        image_endpoint_override=aio.image_url, image_api_version='2',
        region_name='RegionOne')


def random_file(path, size):
    with open(path, 'wb') as f:
        left = size
        while left:
            chunk = os.urandom(min(left, 16 * MiB))
            f.write(chunk)
            left -= len(chunk)


def bare_convert(image, size, workdir, sparse=True):
    """Seconds of ``qemu-img convert -n`` of ``image`` into a new empty
    raw file of ``size`` bytes."""
    target = os.path.join(workdir, 'bare-%s' % uuid.uuid4().hex)
    subprocess.run(['qemu-img', 'create', '-q', '-f', 'raw', target,
                    str(size)], check=True)
    argv = ['qemu-img', 'convert', '-n', '-f', 'raw', '-O', 'raw']
    if not sparse:
        argv += ['-S', '0']
    try:
        started = time.perf_counter()
        subprocess.run(argv + [image, target], check=True)
        return time.perf_counter() - started
    finally:
        os.unlink(target)


def bare_create(size, workdir):
    """Seconds of ``qemu-img create`` of a raw file of ``size`` bytes (a
    blank volume's file)."""
    target = os.path.join(workdir, 'bare-%s' % uuid.uuid4().hex)
    try:
        started = time.perf_counter()
        subprocess.run(['qemu-img', 'create', '-q', '-f', 'raw', target,
                        str(size)], check=True)
        return time.perf_counter() - started
    finally:
        os.unlink(target)


# The client looks every 5 ms: the figure is then within 5 ms of when the
# operation ended (a look every 20 ms added 10-20 ms to a volume create
# that takes 30 ms, measured).
POLL = 0.005


def volume_from_image(conn, image_id, size_gb, interval=POLL,
                      timeout=600):
    """Seconds from POST /volumes (of ``image_id``, or blank if None) to
    available; deletes the volume."""
    started = time.perf_counter()
    volume = conn.block_storage.create_volume(size=size_gb,
                                              image_id=image_id)

    def available():
        status = conn.block_storage.get_volume(volume.id).status
        if status == 'error':
            raise RuntimeError('volume %s went to error' % volume.id)
        return status == 'available'
    _, done = aio_process.wait_for(available, interval, timeout,
                                   'volume %s' % volume.id)
    conn.block_storage.delete_volume(volume.id)
    return done - started


def summary(name, tether, bare):
    t50, b50 = statistics.median(tether), statistics.median(bare)
    return {'operation': name, 'tether_p50_ms': round(t50 * 1000, 1),
            'tether_min_ms': round(min(tether) * 1000, 1),
            'tether_max_ms': round(max(tether) * 1000, 1),
            'tether_first_ms': round(tether[0] * 1000, 1),
            'bare_p50_ms': round(b50 * 1000, 1),
            'overhead_ms': round((t50 - b50) * 1000, 1),
            'ratio': round(t50 / b50, 2) if b50 else None,
            'rounds': len(tether)}


def bench_create(aio, rounds, workdir):
    conn = connect(aio, 'bench-images')
    tether, bare = [], []
    for _ in range(rounds):
        os.sync()
        tether.append(volume_from_image(conn, None, 1))
        bare.append(bare_create(GiB, workdir))
    rows = [summary(BLANK, tether, bare)]
    for label, size in SIZES:
        path = os.path.join(workdir, 'image-%d' % size)
        random_file(path, size)
        with open(path, 'rb') as f:
            image = conn.image.create_image(
                name='bench-%s' % label.replace(' ', ''), data=f,
                disk_format='raw', container_format='bare')
        size_gb = max(1, -(-size // GiB))
        tether, bare = [], []
        for _ in range(rounds):
            # Each operation starts with nothing left for the kernel to
            # write back (the last round's 1 GiB would otherwise throttle
            # whichever comes next).
            os.sync()
            tether.append(volume_from_image(conn, image.id, size_gb))
            os.sync()
            bare.append(bare_convert(path, size_gb * GiB, workdir))
        conn.image.delete_image(image)
        os.unlink(path)
        rows.append(summary('volume from a %s image' % label, tether, bare))
    return rows


def _tiny_images():
    """{marker: path} of the tiny guest's two images (built and cached as
    for the tests)."""
    sys.path.insert(0, ROOT)
    from tests import guest_images
    return guest_images.images()


def _wait_server(conn, server_id, interval=POLL, timeout=600):
    def active():
        server = conn.compute.get_server(server_id)
        if server.status == 'ERROR':
            raise RuntimeError('server %s went to ERROR: %s'
                               % (server_id, server.fault))
        return server.status == 'ACTIVE' and server.task_state is None
    return aio_process.wait_for(active, interval, timeout,
                                'server %s' % server_id)[1]


def _wait_guest_up(conn, server_id, marker, timeout=300):
    """Until the guest's console says it booted image ``marker``."""
    word = 'TETHER-GUEST-UP marker=%s ' % marker
    aio_process.wait_for(
        lambda: word in (conn.compute.get_server_console_output(
            server_id).get('output') or ''), 0.2, timeout,
        'guest %s up with %s' % (server_id, marker))


def rebuild_once(conn, server_id, image_id):
    """Seconds from POST rebuild (2.93: the root volume re-imaged) to
    ACTIVE."""
    started = time.perf_counter()
    resp = conn.compute.post(
        '/servers/%s/action' % server_id,
        json={'rebuild': {'imageRef': image_id}},
        headers={'OpenStack-API-Version': 'compute 2.93'})
    if resp.status_code != 202:
        raise RuntimeError('rebuild: %s %s' % (resp.status_code, resp.text))
    return _wait_server(conn, server_id) - started


def _console_says(path, word, timeout=300):
    """Until the file ``path`` (a guest's console log) holds ``word``."""
    def found():
        try:
            with open(path, errors='replace') as f:
                return word in f.read()
        except FileNotFoundError:
            return False
    aio_process.wait_for(found, 0.05, timeout, '%r in %s' % (word, path))


def _power_off(dom, graceful, timeout=60):
    """Destroy the guest, or (``graceful``) press its power button and
    wait until it is off, as a rebuild does."""
    if not graceful:
        dom.destroy()
        return
    dom.shutdown()
    aio_process.wait_for(lambda: not dom.isActive(), 0.01, timeout,
                         'guest %s off' % dom.name())


def tiny_domain_xml(prefix, disk, console):
    """A TCG guest of the tiny image's shape on the raw file ``disk``."""
    from tether.drivers.virt.libvirt import config
    return config.to_xml(config.domain(
        name='%s-%s' % (prefix, uuid.uuid4().hex[:8]),
        uuid=str(uuid.uuid4()), memory_mib=128, vcpus=1,
        disks=[config.Disk(path=disk, fmt='raw', target='sda',
                           boot_order=1)],
        virt_type='qemu', cpu_model='qemu64', console_log=console))


def bare_rebuild(lconn, image, workdir, previous, graceful=False):
    """Seconds of what a rebuild is made of, done directly: power off the
    guest ``previous`` (a libvirt domain or None; destroyed, or with
    ``graceful`` shut down by its OS), ``qemu-img convert -S 0`` of
    ``image`` into a new 1 GiB volume file, define and start a guest of
    the same shape on it. Returns (seconds, the new domain, its console
    log)."""
    target = os.path.join(workdir, 'bare-root-%s' % uuid.uuid4().hex)
    console = target + '.console'
    subprocess.run(['qemu-img', 'create', '-q', '-f', 'raw', target,
                    str(GiB)], check=True)
    os.chmod(target, 0o666)
    xml = tiny_domain_xml('tether-bench-rebuild', target, console)
    os.sync()
    started = time.perf_counter()
    if previous is not None:
        _power_off(previous, graceful)
    subprocess.run(['qemu-img', 'convert', '-n', '-S', '0', '-f', 'raw',
                    '-O', 'raw', image, target], check=True)
    dom = lconn.defineXML(xml)
    dom.create()
    elapsed = time.perf_counter() - started
    if previous is not None:
        previous.undefine()
    return elapsed, dom, console


def bare_rebuilds(paths, rounds, workdir, graceful):
    """``rounds`` bare rebuilds, alternating the two images; as for
    tether, each round starts once the guest before it has booted (not
    timed), so that a graceful power-off is the guest's answer to its
    power button."""
    import libvirt
    lconn = libvirt.open('qemu:///system')
    markers = sorted(paths)
    seconds, dom = [], None
    try:
        for i in range(rounds + 1):
            elapsed, dom, console = bare_rebuild(
                lconn, paths[markers[i % 2]], workdir, dom, graceful)
            if i:  # the first only makes the guest to rebuild
                seconds.append(elapsed)
            _console_says(console,
                          'TETHER-GUEST-UP marker=%s ' % markers[i % 2])
    finally:
        if dom is not None:
            dom.destroy()
            dom.undefine()
        lconn.close()
    return seconds


def bench_rebuild(aio, rounds, workdir):
    paths = _tiny_images()
    conn = connect(aio, 'bench-rebuild')
    ids = []
    for marker in sorted(paths):
        with open(paths[marker], 'rb') as f:
            ids.append(conn.image.create_image(
                name='bench-%s' % marker, data=f, disk_format='raw',
                container_format='bare').id)
    volume = conn.block_storage.create_volume(size=1, image_id=ids[0])
    aio_process.wait_for(
        lambda: conn.block_storage.get_volume(volume.id).status ==
        'available', 0.05, 600, 'volume %s' % volume.id)
    server = conn.compute.create_server(
        name='bench-rebuild', flavor_id='2', networks='none',
        block_device_mapping=[{'uuid': volume.id, 'source_type': 'volume',
                               'destination_type': 'volume',
                               'boot_index': 0,
                               'delete_on_termination': True}])
    _wait_server(conn, server.id)
    markers = sorted(paths)
    _wait_guest_up(conn, server.id, markers[0])
    tether = []
    for i in range(rounds):
        os.sync()
        tether.append(rebuild_once(conn, server.id, ids[(i + 1) % 2]))
        # A user rebuilds a guest that is up: the next round waits (not
        # timed) until this one booted, so that its power-off is the
        # guest's answer to the power button, not a wait for a guest
        # still booting.
        _wait_guest_up(conn, server.id, markers[(i + 1) % 2])
    conn.compute.delete_server(server)
    for image_id in ids:
        conn.image.delete_image(image_id)
    return [
        summary('rebuild vs destroy+convert+start', tether,
                bare_rebuilds(paths, rounds, workdir, graceful=False)),
        summary('rebuild vs shutdown+convert+start', tether,
                bare_rebuilds(paths, rounds, workdir, graceful=True)),
    ]


def print_floor(rows):
    """For each create from an image: what 1.2x of its bare convert
    leaves for the control plane, beside what a blank create's costs."""
    floor = [r for r in rows if r['operation'] == BLANK]
    if not floor:
        return
    floor = floor[0]['overhead_ms']
    for r in rows:
        if r['operation'].startswith('volume from a'):
            print('%s: the aim (1.2x of the bare convert, %.1f ms) leaves '
                  '%.1f ms for the control plane; a blank create\'s control '
                  'plane takes %.1f ms' % (
                      r['operation'], r['bare_p50_ms'],
                      0.2 * r['bare_p50_ms'], floor))


def print_rows(rows):
    print('%-40s %10s %10s %10s %7s %16s %9s' % (
        'operation (p50 of n)', 'tether ms', 'bare ms', 'overhead',
        'ratio', 'tether min/max', 'first'))
    for r in rows:
        print('%-40s %10.1f %10.1f %10.1f %7.2f %7.1f/%-8.1f %9.1f' % (
            '%s (%d)' % (r['operation'], r['rounds']), r['tether_p50_ms'],
            r['bare_p50_ms'], r['overhead_ms'], r['ratio'],
            r['tether_min_ms'], r['tether_max_ms'], r['tether_first_ms']))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('-n', '--rounds', type=int, default=5)
    parser.add_argument('--json', help='also write the rows to this file')
    parser.add_argument('--rebuild', action='store_true',
                        help='also a volume-backed rebuild (the tiny guest)')
    parser.add_argument('--only-rebuild', action='store_true',
                        help='the rebuild alone')
    args = parser.parse_args(argv)
    aio = aio_process.Aio(None)
    workdir = tempfile.mkdtemp(prefix='tether-bench-images-',
                               dir='/var/tmp')
    # QEMU (libvirt-qemu) opens the bare guests' disks in it.
    os.chmod(workdir, 0o755)
    try:
        rows = [] if args.only_rebuild else bench_create(aio, args.rounds,
                                                         workdir)
        if args.rebuild or args.only_rebuild:
            rows += bench_rebuild(aio, args.rounds, workdir)
    finally:
        aio.stop()
        aio.cleanup()
        subprocess.run(['rm', '-rf', workdir])
    print_rows(rows)
    print_floor(rows)
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(rows, f, indent=2)
    return 0


if __name__ == '__main__':
    sys.exit(main())
