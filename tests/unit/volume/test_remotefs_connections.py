"""Connection info of the NFS driver, on a local share with real qemu-img."""

import uuid

import pytest
from oslo_config import cfg

from tether.conf import backend as conf_backend
from tether.drivers.volume import nfs
from tether.volume import exception
from tether.objects.volume import volume as volume_obj


def _driver(share, **overrides):
    conf = cfg.ConfigOpts()
    conf.register_opts(conf_backend.backend_opts, group='b')
    conf([], project='tether-test')
    conf.set_override('nfs_shares', [str(share)], group='b')
    for key, value in overrides.items():
        conf.set_override(key, value, group='b')
    driver = nfs.NfsDriver(conf.b, 'host@b')
    driver.do_setup()
    return driver


def _created(driver):
    volume = volume_obj.Volume(
        id=str(uuid.uuid4()), size=1, host='host@b', status='creating',
        provider_location=None, admin_metadata={}, metadata={})
    update = driver.create_volume(volume)
    volume.provider_location = update['provider_location']
    volume.admin_metadata = update['admin_metadata']
    return volume


@pytest.mark.parametrize('fmt', ['raw', 'qcow2'])
def test_connection_info_names_share_file_and_format(tmp_path, fmt):
    share = tmp_path / 'share'
    driver = _driver(share, volume_format=fmt,
                     nfs_mount_options='vers=4.1')
    volume = _created(driver)
    info = driver.initialize_connection(volume, {'host': 'c1', 'mode': 'ro'})
    assert info == {
        'driver_volume_type': 'nfs',
        'data': {'export': str(share), 'name': 'volume-%s' % volume.id,
                 'format': fmt, 'options': 'vers=4.1', 'access_mode': 'ro',
                 'volume_id': volume.id},
    }
    # Asked again, the same answer; terminating twice is fine.
    assert driver.initialize_connection(
        volume, {'host': 'c1', 'mode': 'ro'}) == info
    driver.terminate_connection(volume, {'host': 'c1'})
    driver.terminate_connection(volume, {'host': 'c1'})


def test_connection_defaults_to_rw_and_no_options(tmp_path):
    driver = _driver(tmp_path / 'share')
    volume = _created(driver)
    data = driver.initialize_connection(volume, {'host': 'c1'})['data']
    assert (data['access_mode'], data['options']) == ('rw', None)


def test_missing_file_is_a_backend_error(tmp_path):
    driver = _driver(tmp_path / 'share')
    volume = _created(driver)
    (tmp_path / 'share' / volume.name_on_disk).unlink()
    with pytest.raises(exception.VolumeBackendAPIException,
                       match='file of volume %s is missing' % volume.id):
        driver.initialize_connection(volume, {'host': 'c1'})
