"""One round of online_extend.py on each side: ExtendTether boots a server
from a volume through tether-aio, attaches a data volume and extends it
online (the extends are timed); Bare does the same extends on a guest of
its own, with libvirt-python and qemu-img and through tether's libvirt
driver and qemu_img wrappers."""

import os
import subprocess
import sys
import time
import uuid

import aio_process
import compute_ops
import libvirt
import libvirt_ops
import requests
from openstack import exceptions as sdk_exc

from tether.drivers import qemu_img
from tether.drivers.virt.libvirt import config
from tether import exception

GiB = 1024 ** 3
MICROVERSION = '3.71'
SIZES = (2, 3)      # each round extends its 1 GiB volume to 2, then 3 GiB
# Not libvirt_ops.PREFIX: a concurrent libvirt_ops.py or compute_ops.py
# removes every tether-bench-* domain when it ends.
GUEST_PREFIX = 'tether-extend-bench-'
DELETABLE = ('available', 'error', 'error_extending', 'error_restoring',
             'error_managing', 'error_deleting')


# The tether side ------------------------------------------------------------

class ExtendTether(compute_ops.Tether):
    """Rounds of boot, attach, two online extends, detach and delete;
    only the extends are timed."""

    def __init__(self, conn, project, volume_url, interval, timeout):
        super().__init__(conn, interval, timeout)
        self.project = project
        self.volume_url = volume_url.rstrip('/')

    def _volume(self, volume_id):
        resp = self.conn.block_storage.get('/volumes/%s' % volume_id,
                                           microversion=MICROVERSION)
        return resp.json()['volume']

    def _extended(self, volume_id, size):
        volume = self._volume(volume_id)
        if volume['status'] in ('error', 'error_extending'):
            raise RuntimeError('volume %s went to %s' % (volume_id,
                                                         volume['status']))
        return volume['status'] == 'in-use' and volume['size'] == size

    def extend(self, volume_id, size, samples, marks):
        # A show of the volume first, timed apart (what the claim's 202
        # is compared with); the extend's own time starts after it.
        ts = time.perf_counter()
        self._volume(volume_id)
        samples['show'].append(time.perf_counter() - ts)
        wall = time.time()
        t0 = time.perf_counter()
        resp = self.conn.block_storage.post(
            '/volumes/%s/action' % volume_id,
            json={'os-extend': {'new_size': size}},
            microversion=MICROVERSION, raise_exc=False)
        t202 = time.perf_counter()
        if resp.status_code != 202:
            raise RuntimeError('os-extend of %s to %sG: %s %s' % (
                volume_id, size, resp.status_code, resp.text[:500]))
        _, t1 = aio_process.wait_for(
            lambda: self._extended(volume_id, size), self.interval,
            self.timeout, 'extend of %s to %sG' % (volume_id, size))
        samples['post_202'].append(t202 - t0)
        samples['extend'].append(t1 - t0)
        samples['extend_%d' % size].append(t1 - t0)
        marks.append({'volume': volume_id, 'size': size,
                      'request_id': resp.headers.get(
                          'x-openstack-request-id'),
                      'wall_start': wall, 'wall_202': wall + (t202 - t0),
                      'wall_end': wall + (t1 - t0)})

    def round(self, samples, marks, index):
        root = self.new_volume('bench-root-%s' % index)
        data = self.new_volume('bench-data-%s' % index)
        server = self.conn.compute.create_server(
            name='bench-extend-%s' % index, flavor_id=compute_ops.FLAVOR,
            networks='none', block_device_mapping=[{
                'uuid': root, 'source_type': 'volume',
                'destination_type': 'volume', 'boot_index': 0}])
        self.servers.add(server.id)
        self.made.add(server.id)
        aio_process.wait_for(lambda: self._server_status(server.id),
                             self.interval, self.timeout,
                             'boot of %s' % server.id)
        self.conn.compute.create_volume_attachment(server.id, volume=data)
        aio_process.wait_for(lambda: self._volume_status(data, 'in-use'),
                             self.interval, self.timeout,
                             'attach of %s' % data)

        for size in SIZES:
            self.extend(data, size, samples, marks)

        self.conn.compute.delete_volume_attachment(server.id, data,
                                                   ignore_missing=False)
        aio_process.wait_for(lambda: self._volume_status(data, 'available'),
                             self.interval, self.timeout,
                             'detach of %s' % data)
        self.conn.compute.delete_server(server.id)
        aio_process.wait_for(lambda: self._gone(server.id), self.interval,
                             self.timeout, 'delete of %s' % server.id)
        self.servers.discard(server.id)
        for volume_id in (root, data):
            aio_process.wait_for(
                lambda: self._volume_status(volume_id, 'available'),
                self.interval, self.timeout, 'release of %s' % volume_id)
            self.delete_volume(volume_id, self.interval, self.timeout)
        return server.id

    def _status(self, volume_id):
        return self.conn.block_storage.get_volume(volume_id).status

    def _admin_reset(self, volume_id):
        """Last resort for a volume stuck in a status that cannot be
        deleted: os-reset_status as admin (noauth user ``admin``)."""
        requests.post(
            '%s/volumes/%s/action' % (self.volume_url, volume_id),
            json={'os-reset_status': {'status': 'available',
                                      'attach_status': 'detached'}},
            headers={'X-Auth-Token': 'admin:%s' % self.project,
                     'OpenStack-API-Version': 'volume ' + MICROVERSION},
            timeout=30).raise_for_status()

    def cleanup(self):
        """Delete what a failed or interrupted round left (a volume may be
        extending or error_extending); report what could not go."""
        left = []
        if self.servers or self.volumes:
            print('cleanup: deleting %d servers and %d volumes left by the '
                  'last round' % (len(self.servers), len(self.volumes)),
                  file=sys.stderr, flush=True)
        for server_id in list(self.servers):
            try:
                try:
                    self.conn.compute.delete_server(server_id)
                except sdk_exc.NotFoundException:
                    pass
                aio_process.wait_for(lambda: self._gone(server_id), 0.1,
                                     120, 'delete of %s' % server_id)
                self.servers.discard(server_id)
            except Exception as exc:  # noqa: BLE001 - report, go on
                left.append('server %s: %s' % (server_id, exc))
        for volume_id in list(self.volumes):
            try:
                try:
                    aio_process.wait_for(
                        lambda: self._status(volume_id) in DELETABLE, 0.1,
                        60, 'release of %s' % volume_id)
                except aio_process.TimedOut:
                    self._admin_reset(volume_id)
                self.delete_volume(volume_id, 0.1, 60)
            except sdk_exc.NotFoundException:
                self.volumes.discard(volume_id)
            except Exception as exc:  # noqa: BLE001
                left.append('volume %s: %s' % (volume_id, exc))
        return left


# The bare side --------------------------------------------------------------

def _timed(fn, *args):
    start = time.perf_counter()
    result = fn(*args)
    return time.perf_counter() - start, result


def _qemu_img_info(path):
    subprocess.run(['qemu-img', 'info', '-U', '--output=json', path],
                   check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.PIPE)


def _qemu_img_resize(path, size_bytes):
    """The volume manager's first try: it fails on QEMU's write lock."""
    proc = subprocess.run(['qemu-img', 'resize', '-f', 'raw', path,
                           str(size_bytes)], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    if proc.returncode == 0 or 'lock' not in proc.stderr:
        raise RuntimeError('qemu-img resize of %s did not fail on the lock '
                           '(rc %d): %s' % (path, proc.returncode,
                                            proc.stderr.strip()))


def _driver_resize(path, size_bytes):
    try:
        qemu_img.resize(path, 'raw', size_bytes)
    except exception.ImageLocked:
        return
    raise RuntimeError('qemu_img.resize of %s did not fail on the lock'
                       % path)


class Bare:
    """A guest of our own per round: root sda, data disks sdb (grown with
    libvirt-python) and sdc (grown through tether's libvirt driver)."""

    def __init__(self, lconn, drv, share):
        self.lconn = lconn
        self.drv = drv
        self.share = share
        self.uuids = set()      # guests defined and not seen undefined

    def _file(self, size_bytes):
        name = 'volume-%s' % uuid.uuid4()
        qemu_img.create(os.path.join(self.share, name), 'raw', size_bytes)
        return {'driver_volume_type': 'nfs',
                'data': {'export': self.share, 'name': name,
                         'format': 'raw', 'access_mode': 'rw'}}

    def round(self, samples, index):
        root = self._file(64 * libvirt_ops.MiB)
        bare, drvd = self._file(GiB), self._file(GiB)
        files = [libvirt_ops._path(info) for info in (root, bare, drvd)]
        dom_uuid = str(uuid.uuid4())
        xml = config.to_xml(config.domain(
            name='%s%d-%s' % (GUEST_PREFIX, os.getpid(), index),
            uuid=dom_uuid, memory_mib=64, vcpus=1,
            disks=[config.Disk(path=path, fmt='raw', target=target)
                   for path, target in zip(files, ('sda', 'sdb', 'sdc'))]))
        try:
            dom = self.lconn.defineXML(xml)
            self.uuids.add(dom_uuid)
            dom.create()
            for size in SIZES:
                t_br, _ = _timed(dom.blockResize, 'sdb', size * GiB,
                                 libvirt.VIR_DOMAIN_BLOCK_RESIZE_BYTES)
                t_info, _ = _timed(_qemu_img_info, files[1])
                t_rs, _ = _timed(_qemu_img_resize, files[1],
                                 (size + 1) * GiB)
                t_dx, grown = _timed(self.drv.extend_volume, dom_uuid, drvd,
                                     size * GiB)
                if not grown:
                    raise RuntimeError('the driver did not grow sdc')
                t_di, info = _timed(qemu_img.info, files[2], 'raw', True)
                if info.virtual_size != size * GiB:
                    raise RuntimeError('sdc is %s bytes, not %s'
                                       % (info.virtual_size, size * GiB))
                t_dr, _ = _timed(_driver_resize, files[2], (size + 1) * GiB)
                for key, value in (
                        ('blockResize', t_br), ('info', t_info),
                        ('bare', t_br + t_info), ('resize', t_rs),
                        ('bare_resize', t_br + t_info + t_rs),
                        ('extend_volume', t_dx), ('info_driver', t_di),
                        ('driver', t_dx + t_di), ('resize_driver', t_dr),
                        ('driver_resize', t_dx + t_di + t_dr)):
                    samples[key].append(value)
        finally:
            self.remove()
            for path in files:
                try:
                    os.unlink(path)
                except OSError:
                    pass

    def remove(self):
        """Destroy and undefine our guests (by UUID, not by prefix)."""
        for dom_uuid in list(self.uuids):
            try:
                dom = self.lconn.lookupByUUIDString(dom_uuid)
            except libvirt.libvirtError:
                self.uuids.discard(dom_uuid)
                continue
            if dom.isActive():
                dom.destroy()
            dom.undefine()
            self.uuids.discard(dom_uuid)
