"""The NFS driver mounts remote exports with ``mount -t nfs``.

This kernel has no NFS client, so ``processutils.execute`` (the process
boundary) is replaced in these tests, with autospec; everything on the
tether side of it is real.
"""

import os
from unittest import mock

import pytest
from oslo_concurrency import processutils
from oslo_config import cfg

from tether.conf import backend as conf_backend
from tether.drivers.volume import nfs
from tether.volume import exception


def _config(tmp_path, shares, options=None):
    conf = cfg.ConfigOpts()
    conf.register_opts(conf_backend.backend_opts, group='b')
    conf([], project='tether-test')
    conf.set_override('nfs_shares', shares, group='b')
    conf.set_override('nfs_mount_point_base', str(tmp_path / 'mnt'),
                      group='b')
    if options:
        conf.set_override('nfs_mount_options', options, group='b')
    return conf.b


def test_remote_export_is_mounted_under_the_base(tmp_path):
    drv = nfs.NfsDriver(_config(tmp_path, ['192.0.2.10:/export/vols'],
                                'vers=4.1,nconnect=4'), 'host@b')
    with mock.patch.object(processutils, 'execute', autospec=True) as ex:
        drv.do_setup()
    mount_point = drv.mount_point_for('192.0.2.10:/export/vols')
    ex.assert_called_once_with('mount', '-t', 'nfs', '-o',
                               'vers=4.1,nconnect=4',
                               '192.0.2.10:/export/vols', mount_point)
    assert os.path.dirname(mount_point) == str(tmp_path / 'mnt')
    assert os.path.isdir(mount_point)
    assert drv.shares == {'192.0.2.10:/export/vols': mount_point}


def test_mount_points_differ_per_export(tmp_path):
    drv = nfs.NfsDriver(_config(tmp_path, []), 'host@b')
    assert drv.mount_point_for('h:/a') != drv.mount_point_for('h:/b')
    assert drv.mount_point_for('/srv/local') == '/srv/local'


def test_failed_mount_of_every_share_is_a_clear_error(tmp_path):
    drv = nfs.NfsDriver(_config(tmp_path, ['192.0.2.10:/export']), 'host@b')
    failure = processutils.ProcessExecutionError(
        stderr='mount.nfs: No such device', exit_code=32)
    with mock.patch.object(processutils, 'execute', autospec=True,
                           side_effect=failure):
        with pytest.raises(exception.RemoteFSNoSharesMounted,
                           match='No such device'):
            drv.do_setup()


def test_one_share_failing_leaves_the_others_in_service(tmp_path):
    local = tmp_path / 'local-share'
    drv = nfs.NfsDriver(_config(tmp_path, ['192.0.2.10:/export',
                                           str(local)]), 'host@b')
    failure = processutils.ProcessExecutionError(stderr='timed out')
    with mock.patch.object(processutils, 'execute', autospec=True,
                           side_effect=failure):
        drv.do_setup()
    assert drv.shares == {str(local): str(local)}
