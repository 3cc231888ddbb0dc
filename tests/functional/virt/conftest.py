"""Fixtures of the libvirt tests: the driver, volume files, guests to clean."""

import os
import shutil
import uuid

import pytest

from tests.functional import libvirt_fixture
from tether.drivers import qemu_img
from tether.drivers.virt import driver as virt_driver
from tether import exception

MiB = 1024 ** 2


@pytest.fixture(scope='session')
def libvirt_ready():
    libvirt_fixture.ensure_libvirt()
    yield
    # Whatever a test of this process left behind, crash or not.
    libvirt_fixture.remove_domains(
        libvirt_fixture.PREFIX + libvirt_fixture.SESSION_TOKEN)


@pytest.fixture(scope='session')
def share():
    path = libvirt_fixture.share_dir()
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope='session')
def instances_path(tmp_path_factory):
    """Where the driver's guests log their consoles (virtlogd, root,
    writes them: no need for libvirt-qemu to reach it)."""
    return str(tmp_path_factory.mktemp('instances'))


@pytest.fixture(scope='session')
def driver(libvirt_ready, instances_path):
    drv = libvirt_fixture.make_driver(instances_path)
    drv.init_host()
    return drv


class Virt:
    """Volumes on the share and guests of one test, removed after it."""

    def __init__(self, driver, share):
        self.driver = driver
        self.share = share
        self.uuids = []
        self.files = []
        self.label = uuid.uuid4().hex[:6]

    def volume(self, fmt='raw', size=64 * MiB, access_mode='rw'):
        """A new volume file; its connection info, as the volume API gives."""
        volume_id = str(uuid.uuid4())
        name = 'volume-%s' % volume_id
        path = os.path.join(self.share, name)
        qemu_img.create(path, fmt, size)
        self.files.append(path)
        return {'driver_volume_type': 'nfs',
                'data': {'export': self.share, 'name': name, 'format': fmt,
                         'options': None, 'access_mode': access_mode}}

    @staticmethod
    def path(connection_info):
        data = connection_info['data']
        return os.path.join(data['export'], data['name'])

    def instance(self, memory_mb=64, vcpus=1):
        inst = virt_driver.Instance(
            uuid=str(uuid.uuid4()),
            name=libvirt_fixture.domain_name(self.label),
            memory_mb=memory_mb, vcpus=vcpus)
        self.uuids.append(inst.uuid)
        return inst

    def spawn(self, *volumes, **kwargs):
        inst = self.instance()
        devices = self.driver.spawn(inst, list(volumes), **kwargs)
        return inst, devices

    def size(self, connection_info):
        """Virtual size as qemu-img sees it (-U: while a guest holds it)."""
        return qemu_img.info(self.path(connection_info),
                             connection_info['data']['format'],
                             force_share=True).virtual_size

    def locked(self, connection_info):
        """Whether a writer (the volume service's qemu-img) is refused.

        ``qemu-img resize`` to the current size needs the write lock and
        changes nothing. (``qemu-img info`` without -U does not do for a
        raw file: it opens it without I/O and takes no lock.)
        """
        fmt = connection_info['data']['format']
        try:
            qemu_img.resize(self.path(connection_info), fmt,
                            self.size(connection_info))
        except exception.ImageLocked:
            return True
        return False

    def cleanup(self):
        for instance_uuid in self.uuids:
            self.driver.destroy(instance_uuid)
        libvirt_fixture.remove_domains(libvirt_fixture.domain_prefix(
            self.label))
        for path in self.files:
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass


@pytest.fixture
def virt(driver, share):
    env = Virt(driver, share)
    yield env
    env.cleanup()
