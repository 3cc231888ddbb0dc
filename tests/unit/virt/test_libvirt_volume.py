"""Volume connection info into disk paths and specs; NFS mounts.

The kernel here has no NFS client, so ``processutils.execute`` (the process
boundary) is replaced in the mount tests, with autospec.
"""

import json
import os
from unittest import mock

import pytest
from oslo_concurrency import processutils
from oslo_config import cfg

from tether.conf import backend as conf_backend
from tether.drivers.virt.libvirt import parse
from tether.drivers.virt.libvirt import volume
from tether.drivers.volume import remotefs
from tether.compute import exception

VOLUME_ID = '0c2bd1a9-2f87-4a57-a0b3-69a0fbc2a1f3'


def _info(**data):
    base = {'export': '/srv/share', 'name': 'volume-%s' % VOLUME_ID,
            'format': 'qcow2', 'options': None, 'access_mode': 'rw'}
    base.update(data)
    return {'driver_volume_type': 'nfs', 'data': base}


def test_local_export_is_the_directory_itself():
    assert volume.disk_path(_info(), '/mnt') == \
        '/srv/share/volume-%s' % VOLUME_ID


def test_remote_export_is_under_the_mount_base_as_the_volume_service_has_it():
    path = volume.disk_path(_info(export='192.0.2.1:/vols'), '/mnt/base')
    assert os.path.dirname(os.path.dirname(path)) == '/mnt/base'
    assert volume.mount_point_for('192.0.2.1:/vols', '/mnt/base') != \
        volume.mount_point_for('192.0.2.1:/other', '/mnt/base')
    # The same place tether-volume's NFS driver mounts the export (in
    # tether-aio both services share one mount point base).
    conf = cfg.ConfigOpts()
    conf.register_opts(conf_backend.backend_opts, group='b')
    conf([], project='tether-test')
    conf.set_override('nfs_mount_point_base', '/mnt/base', group='b')
    drv = remotefs.RemoteFSDriver(conf.b, 'host@b')
    assert os.path.dirname(path) == drv.mount_point_for('192.0.2.1:/vols')


def test_volume_id_from_serial_or_name():
    assert volume.volume_id(_info()) == VOLUME_ID
    assert volume.volume_id(dict(_info(), serial='abc')) == 'abc'
    assert volume.volume_id(_info(name='other-file')) == 'other-file'


def test_disk_spec_from_connection_info():
    spec = volume.disk_spec(_info(access_mode='ro'), '/p', 'sdb')
    assert (spec.path, spec.fmt, spec.target, spec.serial, spec.readonly) \
        == ('/p', 'qcow2', 'sdb', VOLUME_ID, True)
    plain = volume.disk_spec(_info(format=None, access_mode=None), '/p',
                             'sda')
    assert (plain.fmt, plain.readonly) == ('raw', False)


@pytest.mark.parametrize('info, message', [
    ('nope', 'not a mapping'),
    ({'driver_volume_type': 'iscsi', 'data': {}}, 'iscsi'),
    ({'driver_volume_type': 'nfs'}, 'no data'),
    (_info(export=''), 'export'),
    (_info(name=None), 'name'),
    (_info(name='../etc/passwd'), 'not a file name'),
    (_info(name='..'), 'not a file name'),
])
def test_bad_connection_info_is_refused(info, message):
    with pytest.raises(exception.InvalidConnectionInfo, match=message):
        volume.disk_path(info, '/mnt')


@pytest.mark.parametrize('data, message', [
    ({'format': 'vmdk'}, 'vmdk'), ({'access_mode': 'rwx'}, 'rwx')])
def test_bad_format_or_access_mode_is_refused(data, message):
    with pytest.raises(exception.InvalidConnectionInfo, match=message):
        volume.disk_spec(_info(**data), '/p', 'sda')


def test_connect_of_a_local_share_mounts_nothing(tmp_path):
    with mock.patch.object(processutils, 'execute', autospec=True) as ex:
        path = volume.connect(_info(export=str(tmp_path)), '/mnt')
    assert path == str(tmp_path / ('volume-%s' % VOLUME_ID))
    ex.assert_not_called()


@pytest.mark.parametrize('options, conf_options, expected', [
    ('-o vers=4.1', None, ['-o', 'vers=4.1']),
    (None, 'nconnect=4', ['-o', 'nconnect=4']),
    (None, None, []),
])
def test_connect_mounts_a_remote_export(tmp_path, options, conf_options,
                                        expected):
    info = _info(export='192.0.2.1:/vols', options=options)
    with mock.patch.object(processutils, 'execute', autospec=True) as ex:
        path = volume.connect(info, str(tmp_path), conf_options)
    mount_point = os.path.dirname(path)
    ex.assert_called_once_with('mount', '-t', 'nfs', *expected,
                               '192.0.2.1:/vols', mount_point)
    assert os.path.isdir(mount_point)


def test_failed_mount_is_a_clear_error(tmp_path):
    failure = processutils.ProcessExecutionError(
        stderr='mount.nfs: No such device\n', exit_code=32)
    with mock.patch.object(processutils, 'execute', autospec=True,
                           side_effect=failure):
        with pytest.raises(exception.VolumeShareNotMounted,
                           match='192.0.2.1:/vols.*No such device'):
            volume.connect(_info(export='192.0.2.1:/vols'), str(tmp_path))


def test_virtiofsd_is_found_by_binary_or_vhost_user_descriptor(tmp_path):
    host = pytest.importorskip('tether.drivers.virt.libvirt.host')
    desc = tmp_path / 'desc'
    desc.mkdir()
    (desc / '50-other.json').write_text(json.dumps({'type': 'gpu'}))
    (desc / '40-broken.json').write_text('{')
    assert host.vhost_user_fs_descriptors([str(desc)]) == []
    assert not host.virtiofsd_available([str(tmp_path / 'none')],
                                        [str(desc)])
    (desc / '50-fs.json').write_text(json.dumps(
        {'type': 'fs', 'binary': '/usr/lib/qemu/virtiofsd'}))
    assert host.vhost_user_fs_descriptors([str(desc)]) == [
        str(desc / '50-fs.json')]
    assert host.virtiofsd_available([], [str(desc)])
    binary = tmp_path / 'virtiofsd'
    binary.write_text('')
    binary.chmod(0o755)
    assert host.virtiofsd_available([str(binary)], [])


def test_libvirt_version_numbers():
    host = pytest.importorskip('tether.drivers.virt.libvirt.host')
    assert host.version_tuple(9000000) == (9, 0, 0)
    assert host.version_tuple(7002022) == (7, 2, 22)


def test_qos_specs_become_the_disks_iotune():
    # Nova's mapping: the keys libvirt takes, in its order; another
    # consumer's keys (the backend's) and bad values are left out.
    info = _info(qos_specs={'read_iops_sec': '2000',
                            'total_bytes_sec': 1048576,
                            'size_iops_sec': ' 4096 ',
                            'minIOPS': '10', 'write_iops_sec': 'fast',
                            'read_bytes_sec_max': '-1'})
    spec = volume.disk_spec(info, '/srv/share/v', 'sdb')
    assert spec.iotune == (('total_bytes_sec', 1048576),
                           ('read_iops_sec', 2000),
                           ('size_iops_sec', 4096))
    for none in (None, {}, 'read_iops_sec=1', ['x']):
        assert volume.disk_spec(_info(qos_specs=none), '/p',
                                'sdb').iotune == ()
    assert volume.disk_spec(_info(), '/p', 'sdb').iotune == ()


def test_raw_file_size_is_the_size_of_a_raw_disks_file(tmp_path):
    path = tmp_path / 'volume-1'
    path.write_bytes(b'\0' * 4096)

    def disk(fmt, source):
        return parse.DiskInfo(target='sdb', bus='scsi', source=source,
                              fmt=fmt, serial='1', readonly=False)

    assert volume.raw_file_size(disk('raw', str(path))) == 4096
    # QEMU is asked about anything else: a qcow2's file is not its size,
    # a device's size is not st_size, a file that is not there.
    assert volume.raw_file_size(disk('qcow2', str(path))) is None
    assert volume.raw_file_size(disk('raw', '/dev/null')) is None
    assert volume.raw_file_size(disk('raw', str(tmp_path / 'gone'))) is None
    assert volume.raw_file_size(disk('raw', None)) is None
