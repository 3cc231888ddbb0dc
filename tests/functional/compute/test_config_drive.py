"""Config drives over HTTP, read on the host (guests with no OS): what a
server's disk.config holds (Nova's layout, read with mtools), when it has
one (asked, or [DEFAULT] force_config_drive), config_drive in server
show, and the refusals (bad values, a host too old) that make nothing.
tests/functional/compute/test_real_guest_config_drive.py proves from
inside a guest that it reads it."""

import base64
import json
import os
import subprocess
import uuid
import xml.etree.ElementTree as ET

import libvirt
from oslo_config import cfg
import pytest

from tests.functional import cli
from tests.functional.compute import server_helpers as sh
from tests.functional import helpers
from tests.functional import libvirt_fixture

from tether.compute import version as compute_version
from tether.db.compute import service as db_compute_services

CONF = cfg.CONF
PUBLIC_KEY = ('ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDPvN1YyQb2vGq7kq5I3KX'
              'LmwJ0Lx2nwo8fGZRl8w8ps cd@example.org')


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def _drive(server_id):
    return os.path.join(CONF.instances_path, server_id, 'disk.config')


def _read(server_id, name):
    """A file of the server's config drive, read with mtools."""
    proc = subprocess.run(
        ['mtype', '-i', _drive(server_id), '::' + name],
        capture_output=True, env=dict(os.environ, MTOOLS_SKIP_CHECK='1'),
        check=True)
    return proc.stdout


def _label(server_id):
    proc = subprocess.run(['mlabel', '-i', _drive(server_id), '-s', '::'],
                          capture_output=True, text=True, check=True,
                          env=dict(os.environ, MTOOLS_SKIP_CHECK='1'))
    return proc.stdout.split('is', 1)[1].strip()


def _domain_disks(server_id):
    conn = libvirt.open(libvirt_fixture.URI)
    try:
        xml = conn.lookupByUUIDString(server_id).XMLDesc(0)
    finally:
        conn.close()
    return ET.fromstring(xml).findall('./devices/disk')


def test_what_a_config_drive_holds(cloud):
    user = cloud.project()
    resp = user.compute('2.2').post('/os-keypairs', json={'keypair': {
        'name': 'cd-key', 'public_key': PUBLIC_KEY}})
    assert resp.status_code == 201, resp.text
    user_data = b'#!/bin/sh\necho hello\n'
    server = user.boot(
        name='cd-server', key_name='cd-key', config_drive=True,
        metadata={'role': 'db'},
        user_data=base64.b64encode(user_data).decode())
    assert user.server(server.id)['config_drive'] == 'True'
    assert _label(server.id) == 'config-2'
    meta = json.loads(_read(server.id, 'openstack/latest/meta_data.json'))
    assert meta == {
        'uuid': server.id, 'name': 'cd-server', 'hostname': 'cd-server',
        'launch_index': 0, 'availability_zone': 'nova',
        'project_id': user.project, 'meta': {'role': 'db'},
        'devices': [],
        'public_keys': {'cd-key': PUBLIC_KEY},
        'keys': [{'name': 'cd-key', 'type': 'ssh', 'data': PUBLIC_KEY}]}
    assert _read(server.id, 'openstack/latest/user_data') == user_data
    assert json.loads(_read(server.id,
                            'openstack/latest/network_data.json')) == {
        'links': [], 'networks': [], 'services': []}
    assert _read(server.id, 'openstack/latest/vendor_data2.json') == b'{}'
    # A read-only disk after the root volume; the guest boots from that.
    disks = _domain_disks(server.id)
    assert len(disks) == 2
    drive = disks[1]
    assert drive.find('source').get('file') == _drive(server.id)
    assert drive.find('readonly') is not None
    assert drive.find('boot') is None
    assert disks[0].find('boot').get('order') == '1'
    # A volume attached later takes the next name.
    volume = user.volume()
    attachment = user.conn.compute.create_volume_attachment(
        server, volume_id=volume['id'])
    assert attachment.device == '/dev/sdc'
    user.conn.compute.delete_server(server)
    user.wait_gone(server.id)
    assert not os.path.exists(_drive(server.id))


def test_without_one_unless_forced(cloud):
    user = cloud.project()
    plain = user.boot()
    assert user.server(plain.id)['config_drive'] == ''
    assert not os.path.exists(_drive(plain.id))
    assert len(_domain_disks(plain.id)) == 1
    asked_not = user.boot(config_drive=False)
    assert user.server(asked_not.id)['config_drive'] == ''
    CONF.set_override('force_config_drive', True)
    try:
        forced = user.boot()
    finally:
        CONF.clear_override('force_config_drive')
    assert user.server(forced.id)['config_drive'] == 'True'
    meta = json.loads(_read(forced.id, 'openstack/latest/meta_data.json'))
    assert meta['uuid'] == forced.id
    assert 'public_keys' not in meta
    with pytest.raises(subprocess.CalledProcessError):
        _read(forced.id, 'openstack/latest/user_data')


def test_bad_values_and_old_hosts_make_nothing(cloud):
    user = cloud.project()
    volume = user.volume()
    http = user.compute(sh.LATEST)
    for value in ('maybe', 1, None, {'a': 1}):
        resp = http.post('/servers', json=sh.server_body(
            volume['id'], config_drive=value))
        assert resp.status_code == 400, (value, resp.text)
        assert 'config_drive' in sh.message(resp)
    ctx = helpers.admin_context()
    services = db_compute_services.get_all(ctx, binary='tether-compute')
    for service in services:
        db_compute_services.update(
            ctx, service.id,
            {'version': compute_version.CONFIG_DRIVE_SERVICE_VERSION - 1})
    try:
        resp = http.post('/servers', json=sh.server_body(
            volume['id'], config_drive='true'))
    finally:
        for service in services:
            db_compute_services.update(ctx, service.id,
                                       {'version': service.version})
    assert resp.status_code == 409, resp.text
    assert 'config drive' in sh.message(resp)
    assert user.show_volume(volume['id'])['status'] == 'available'
    assert [s for s in user.conn.compute.servers()] == []
    # The same body on today's host: built.
    resp = http.post('/servers', json=sh.server_body(
        volume['id'], name='cd-' + uuid.uuid4().hex[:4],
        config_drive='true'))
    assert resp.status_code == 202, resp.text
    user.track(resp.json()['server']['id'])
    server = user.wait_server(resp.json()['server']['id'])
    assert user.server(server.id)['config_drive'] == 'True'


def test_the_openstack_cli(cloud, tmp_path):
    user = cloud.project()
    volume = user.volume()
    cli_user = cli.CLI(user.aio, tmp_path, user.user, user.project)
    shown = cli_user.json('server', 'create', '--volume', volume['id'],
                          '--flavor', 'm1.nano', '--nic', 'none',
                          '--config-drive', 'true', '--wait',
                          'cd-' + uuid.uuid4().hex[:4])
    user.track(shown['id'])
    assert shown['config_drive'] == 'True'
    assert os.path.exists(_drive(shown['id']))
