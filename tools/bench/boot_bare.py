"""The bare side of boot.py: copies of the domains tether defined, under
other names and UUIDs on copies of their disks, defined and started with
libvirt-python, one at a time or from parallel threads."""

import os
import shutil
import subprocess
import threading
import time
import uuid
import xml.etree.ElementTree as ET

import libvirt

# Not libvirt_ops.PREFIX: a concurrent libvirt_ops.py or compute_ops.py
# removes every tether-bench-* domain when it ends.
PREFIX = 'tether-boot-bench-'


class Bare:
    """Copies of tether's guests in ``workdir`` (a directory QEMU can
    reach); every domain it defines is removed by :meth:`remove`."""

    def __init__(self, conn, workdir):
        self.conn = conn
        self.workdir = workdir
        self.uuids = set()      # defined and not yet removed
        self.count = 0

    def copy(self, server_id):
        """The definition of tether's guest of ``server_id`` (libvirt's
        inactive XML) with another name and UUID, its disk files copied
        (sparse) and its console log in ``workdir``."""
        dom = self.conn.lookupByUUIDString(server_id)
        root = ET.fromstring(dom.XMLDesc(libvirt.VIR_DOMAIN_XML_INACTIVE))
        self.count += 1
        name = '%s%d-%d' % (PREFIX, os.getpid(), self.count)
        root.find('name').text = name
        root.find('uuid').text = str(uuid.uuid4())
        for source in root.findall('devices/disk/source'):
            path = source.get('file')
            if path is None:
                continue
            copy = os.path.join(self.workdir, '%s-%s' % (
                name, os.path.basename(path)))
            subprocess.run(['cp', '--sparse=always', path, copy],
                           check=True)
            source.set('file', copy)
        for log in root.findall('devices/serial/log'):
            log.set('file', os.path.join(self.workdir, name + '.log'))
        return ET.tostring(root, encoding='unicode')

    def define_start(self, xml, conn=None):
        """defineXML + create, timed; returns (seconds, domain)."""
        t0 = time.perf_counter()
        dom = (conn or self.conn).defineXML(xml)
        self.uuids.add(dom.UUIDString())
        dom.create()
        return time.perf_counter() - t0, dom

    def parallel(self, xmls):
        """define+start of every copy at once, one thread each, released
        together, each on a connection of its own (as tether's driver has
        one per thread: libvirtd serves at most 5 calls of a connection at
        a time): (wall seconds, [seconds of each], [domains])."""
        gate = threading.Barrier(len(xmls) + 1)
        out = [None] * len(xmls)
        conns = [libvirt.open(self.conn.getURI()) for _ in xmls]

        def run(i):
            gate.wait()
            try:
                out[i] = self.define_start(xmls[i], conns[i])
            except Exception as exc:  # noqa: BLE001 - raised below
                out[i] = exc
        threads = [threading.Thread(target=run, args=(i,))
                   for i in range(len(xmls))]
        for t in threads:
            t.start()
        gate.wait()
        t0 = time.perf_counter()
        for t in threads:
            t.join()
        wall = time.perf_counter() - t0
        for result in out:
            if isinstance(result, Exception):
                raise result
        return wall, [r[0] for r in out], [r[1] for r in out]

    def destroy(self, doms):
        for dom in doms:
            if dom.isActive():
                dom.destroy()
            dom.undefine()
            self.uuids.discard(dom.UUIDString())
        for name in os.listdir(self.workdir):
            os.unlink(os.path.join(self.workdir, name))

    def remove(self):
        """Every domain this made that is still defined; its files."""
        left = []
        for dom_uuid in list(self.uuids):
            try:
                dom = self.conn.lookupByUUIDString(dom_uuid)
                if dom.isActive():
                    dom.destroy()
                dom.undefine()
                self.uuids.discard(dom_uuid)
            except libvirt.libvirtError as exc:
                if exc.get_error_code() == libvirt.VIR_ERR_NO_DOMAIN:
                    self.uuids.discard(dom_uuid)
                else:
                    left.append('bare domain %s: %s' % (dom_uuid, exc))
        shutil.rmtree(self.workdir, ignore_errors=True)
        return left
