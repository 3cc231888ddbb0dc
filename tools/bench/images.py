#!/usr/bin/env python3
"""Volumes from images (and volume-backed rebuilds) against the bare
operations they are made of.

Against a tether-aio (its real Glance) over HTTP with openstacksdk, N
rounds (default 5) of:

* create-from-image of a 20 MiB and of a 1 GiB raw image (random data:
  nothing to skip): POST /volumes with imageRef until the volume is
  available; the bare operation is ``qemu-img convert -n`` of the same
  image file, already on this host, into an empty volume file;
* rebuild of a volume-backed server (``--rebuild``; the tiny test guest
  as both images, 2.93): POST rebuild until the server is ACTIVE again;
  the bare operations are that convert (of the tiny image, ``-S 0``)
  plus a libvirt destroy and start of a guest of the same shape.

It prints, for each, the p50 of tether and of the bare operation, the
control plane's overhead in ms and as a ratio, and min/max. It measures;
it asserts nothing.

    python3 tools/bench/images.py [-n 5] [--rebuild] [--json PATH]

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

import compute_ops  # noqa: E402
import openstack  # noqa: E402

MiB = 1024 ** 2
GiB = 1024 ** 3
SIZES = (('20 MiB', 20 * MiB), ('1 GiB', GiB))


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


def volume_from_image(conn, image_id, size_gb, interval=0.02,
                      timeout=600):
    """Seconds from POST /volumes to available; deletes the volume."""
    started = time.perf_counter()
    volume = conn.block_storage.create_volume(size=size_gb,
                                              image_id=image_id)

    def available():
        status = conn.block_storage.get_volume(volume.id).status
        if status == 'error':
            raise RuntimeError('volume %s went to error' % volume.id)
        return status == 'available'
    _, done = compute_ops.wait_for(available, interval, timeout,
                                   'volume %s' % volume.id)
    conn.block_storage.delete_volume(volume.id)
    return done - started


def summary(name, tether, bare):
    t50, b50 = statistics.median(tether), statistics.median(bare)
    return {'operation': name, 'tether_p50_ms': round(t50 * 1000, 1),
            'tether_min_ms': round(min(tether) * 1000, 1),
            'tether_max_ms': round(max(tether) * 1000, 1),
            'bare_p50_ms': round(b50 * 1000, 1),
            'overhead_ms': round((t50 - b50) * 1000, 1),
            'ratio': round(t50 / b50, 2) if b50 else None,
            'rounds': len(tether)}


def bench_create(aio, rounds, workdir):
    conn = connect(aio, 'bench-images')
    rows = []
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
            tether.append(volume_from_image(conn, image.id, size_gb))
            bare.append(bare_convert(path, size_gb * GiB, workdir))
        conn.image.delete_image(image)
        os.unlink(path)
        rows.append(summary('volume from a %s image' % label, tether, bare))
    return rows


def print_rows(rows):
    print('%-34s %10s %10s %10s %7s %16s' % (
        'operation (p50 of n)', 'tether ms', 'bare ms', 'overhead',
        'ratio', 'tether min/max'))
    for r in rows:
        print('%-34s %10.1f %10.1f %10.1f %7.2f %7.1f/%-8.1f' % (
            '%s (%d)' % (r['operation'], r['rounds']), r['tether_p50_ms'],
            r['bare_p50_ms'], r['overhead_ms'], r['ratio'],
            r['tether_min_ms'], r['tether_max_ms']))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('-n', '--rounds', type=int, default=5)
    parser.add_argument('--json', help='also write the rows to this file')
    args = parser.parse_args(argv)
    aio = compute_ops.Aio(None)
    workdir = tempfile.mkdtemp(prefix='tether-bench-images-',
                               dir='/var/tmp')
    try:
        rows = bench_create(aio, args.rounds, workdir)
    finally:
        aio.stop()
        aio.cleanup()
        subprocess.run(['rm', '-rf', workdir])
    print_rows(rows)
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(rows, f, indent=2)
    return 0


if __name__ == '__main__':
    sys.exit(main())
