"""tether-aio --keystone: the real command as a subprocess, with a real
Keystone (from PyPI, its own virtualenv, SQLite) and Glance beside it, on
free ports (no heavy lock). The password clouds of its clouds.yaml drive
the openstack CLI and openstacksdk: the identity commands the noauth
clouds cannot serve, and the volume and compute calls through
Keystone's tokens and catalog."""

import json
import uuid

import openstack
import pytest
import yaml

from tests.functional import aio_subprocess

from tether.cmd import aio_keystone
from tether.cmd.keystone import runner


@pytest.fixture(scope='module')
def keystone_aio(tmp_path_factory):
    # Made once (tools/install-deps.sh makes it for the tests); not part
    # of the start-up the test waits for.
    runner.ensure_venv(aio_keystone.default_venv())
    state = tmp_path_factory.mktemp('aio-keystone')
    proc, _url = aio_subprocess.start(
        state, '--keystone', '--keystone-port', '0', '--api-workers', '1',
        timeout=300)
    try:
        yield state
    finally:
        aio_subprocess.stop(proc)


_openstack = aio_subprocess.openstack


def test_password_clouds_and_the_catalog(keystone_aio):
    with open(keystone_aio / 'clouds.yaml') as f:
        clouds = yaml.safe_load(f)['clouds']
    assert set(clouds) == {'tether', 'tether-alt', 'tether-admin'}
    demo = clouds['tether']
    assert demo['auth_type'] == 'password'
    assert demo['auth']['username'] == 'demo'
    assert demo['has_network'] is False
    assert not any(k.endswith('_endpoint_override') for k in demo)
    types = set(_openstack(keystone_aio, 'tether-admin', 'catalog', 'list',
                           '-f', 'value', '-c', 'Type').split())
    assert types == {'identity', 'block-storage', 'volumev3', 'compute',
                     'image'}


def test_identity_commands(keystone_aio):
    projects = _openstack(keystone_aio, 'tether-admin', 'project', 'list',
                          '-f', 'value', '-c', 'Name').split()
    assert {'admin', 'demo', 'alt', 'service'} <= set(projects)
    users = _openstack(keystone_aio, 'tether-admin', 'user', 'list', '-f',
                       'value', '-c', 'Name').split()
    assert {'admin', 'demo', 'alt', 'tether', 'glance'} <= set(users)


def test_project_access_by_name(keystone_aio):
    flavor = 'fk-' + uuid.uuid4().hex[:6]
    vtype = 'vk-' + uuid.uuid4().hex[:6]
    for args in (('flavor', 'create', '--private', '--ram', '64', '--disk',
                  '1', '--vcpus', '1', flavor),
                 ('flavor', 'set', '--project', 'demo', flavor),
                 ('volume', 'type', 'create', '--private', vtype),
                 ('volume', 'type', 'set', '--project', 'demo', vtype)):
        _openstack(keystone_aio, 'tether-admin', *args)
    demo_id = _openstack(keystone_aio, 'tether-admin', 'project', 'show',
                         'demo', '-f', 'value', '-c', 'id').strip()
    config = openstack.config.OpenStackConfig(
        config_files=[str(keystone_aio / 'clouds.yaml')],
        load_envvars=False)
    admin = openstack.connection.Connection(
        config=config.get_one('tether-admin'))
    demo = openstack.connection.Connection(config=config.get_one('tether'))
    try:
        found = admin.compute.find_flavor(flavor)
        assert [a['tenant_id'] for a in admin.compute.get_flavor_access(
            found)] == [demo_id]
        # The demo project uses them; alt does not see them.
        assert demo.compute.find_flavor(flavor) is not None
        kind = admin.block_storage.find_type(vtype)
        assert [a['project_id'] for a in
                admin.block_storage.get_type_access(kind)] == [demo_id]
        volume = demo.block_storage.create_volume(size=1, volume_type=vtype)
        volume = demo.block_storage.wait_for_status(volume, 'available',
                                                    wait=120)
        assert volume.volume_type == vtype
        assert volume.project_id == demo_id
        demo.block_storage.delete_volume(volume)
        demo.block_storage.wait_for_delete(volume, wait=120)
        alt = openstack.connection.Connection(
            config=config.get_one('tether-alt'))
        assert alt.compute.find_flavor(flavor) is None
        alt.close()
    finally:
        admin.compute.delete_flavor(admin.compute.find_flavor(flavor))
        admin.block_storage.delete_type(admin.block_storage.find_type(vtype))
        admin.close()
        demo.close()


def test_quota_commands_by_project_name(keystone_aio):
    # `openstack quota set|show` look the project up in the identity
    # service: with Keystone they work by name, for both APIs.
    def quotas():
        rows = json.loads(_openstack(keystone_aio, 'tether-admin', 'quota',
                                     'show', '-f', 'json', 'alt'))
        if isinstance(rows, dict):
            return rows
        return {r['Resource']: r['Limit'] for r in rows}
    before = quotas()
    try:
        _openstack(keystone_aio, 'tether-admin', 'quota', 'set',
                   '--instances', '7', '--cores', '9', '--volumes', '8',
                   'alt')
        after = quotas()
        assert (after['instances'], after['cores'], after['volumes']) == (
            7, 9, 8), after
        limits = json.loads(_openstack(
            keystone_aio, 'tether-alt', 'limits', 'show', '--absolute',
            '-f', 'json'))
        # Both APIs' absolute limits, under openstacksdk's names.
        named = {r['Name']: r['Value'] for r in limits}
        assert named['max_total_instances'] == 7, named
        assert named['max_total_volumes'] == 8, named
    finally:
        _openstack(keystone_aio, 'tether-admin', 'quota', 'set',
                   '--instances', str(before['instances']),
                   '--cores', str(before['cores']),
                   '--volumes', str(before['volumes']), 'alt')
