"""The clouds.yaml tether-aio writes, as scripts and Ansible modules use
it: openstacksdk's cloud layer and proxies, and the ``openstack`` CLI,
loading the cloud by name from the file, see exactly the services the
aio serves, each at its own endpoint, and no others."""

import os
import uuid

import openstack
from openstack import exceptions as sdk_exc
import pytest

from tests import openstack_cli
from tests.functional import helpers
from tests.functional import image_helpers

from tether.cmd import aio_clouds


def _connect(aio, cloud):
    config = openstack.config.OpenStackConfig(
        config_files=[aio.impl.clouds_path], load_envvars=False)
    return openstack.connection.Connection(config=config.get_one(cloud))


@pytest.fixture
def demo(aio):
    conn = _connect(aio, 'tether')
    yield conn
    conn.close()


def test_only_the_served_services_are_there(demo):
    for service_type in ('compute', 'block-storage', 'volume', 'image'):
        assert demo.has_service(service_type), service_type
    for service_type in ('network', 'object-store', 'dns',
                         'orchestration', 'load-balancer', 'placement',
                         'shared-file-system'):
        assert not demo.has_service(service_type), service_type


def test_each_service_at_its_own_endpoint(aio, demo):
    assert demo.compute.get_endpoint().rstrip('/') == aio.compute_url
    assert demo.block_storage.get_endpoint().startswith(aio.volume_url)
    assert demo.image.get_endpoint().startswith(aio.image_url)


def test_an_absent_service_says_so_without_a_request(demo):
    with pytest.raises(sdk_exc.ServiceDisabledException) as raised:
        list(demo.network.networks())
    assert 'tether-aio serves no network service' in str(raised.value)
    # The cloud layer's network calls see no network service.
    assert demo.list_networks() == []
    assert demo.list_floating_ips() == []
    with pytest.raises(sdk_exc.ServiceDisabledException):
        demo.object_store.containers()


def test_the_cloud_layer_boots_a_server_without_a_network(aio, demo):
    admin = _connect(aio, 'tether-admin')
    image = image_helpers.upload(admin, helpers.disk_bytes(),
                                 visibility='public')
    name = 'cl-' + uuid.uuid4().hex[:6]
    # Not wait=True: the cloud layer deletes a server that becomes
    # ACTIVE without an address, and tether's servers have none.
    server = demo.create_server(name, image=image.id, flavor='m1.nano',
                                network=None)
    try:
        server = demo.compute.wait_for_server(server, wait=120)
        assert server.status == 'ACTIVE'
        assert server.name == name
        # The cloud layer expands a server with its addresses, volumes
        # and image, asking each service that is there.
        listed = {s.id: s for s in demo.list_servers()}
        assert listed[server.id].status == 'ACTIVE'
        assert listed[server.id].public_v4 == ''
        assert demo.get_server(name).id == server.id
        volume = demo.create_volume(1, name=name, wait=True, timeout=60)
        demo.attach_volume(server, volume, wait=True, timeout=60)
        attached = demo.get_volume(volume.id)
        assert attached.status == 'in-use'
        assert [v.id for v in demo.get_volumes(demo.get_server(name))] == [
            volume.id]
        demo.detach_volume(server, attached, wait=True, timeout=60)
    finally:
        assert demo.delete_server(server.id, wait=True, timeout=60)
        demo.delete_volume(name, wait=True, timeout=60)
        admin.image.delete_image(image)
        admin.close()


def test_the_cloud_layer_lists_what_each_service_holds(aio, demo):
    assert 'm1.nano' in [f.name for f in demo.list_flavors()]
    volume = demo.create_volume(1, name='cl-list', wait=True, timeout=60)
    try:
        assert volume.id in [v.id for v in demo.list_volumes()]
        assert demo.get_volume_limits()['absolute']
    finally:
        demo.delete_volume(volume.id, wait=True, timeout=60)
    demo.list_images()


def test_the_cli_finds_each_service_and_names_the_absent_one(aio):
    env = dict(os.environ, OS_CLIENT_CONFIG_FILE=aio.impl.clouds_path,
               OS_CLOUD='tether')

    def run_cli(*args):
        # The console script itself, as users type it (the other CLI
        # tests fork it from a server that has imported it: tests/
        # openstack_cli.py).
        return openstack_cli.exec_openstack(args, env=env, timeout=120)

    for args in (('volume', 'list'), ('server', 'list'),
                 ('flavor', 'list'), ('image', 'list')):
        proc = run_cli(*args)
        assert proc.returncode == 0, (args, proc.stderr)
    proc = run_cli('network', 'list')
    assert proc.returncode != 0
    assert 'tether-aio serves no network service' in proc.stderr
    # No Keystone: the identity API of the noauth clouds refuses, saying
    # so; a project's name is taken as its ID, as noauth tokens make it.
    for args in (('project', 'show', 'demo'), ('user', 'list')):
        proc = run_cli(*args)
        assert proc.returncode != 0
        assert 'runs without Keystone' in proc.stderr, proc.stderr
    env['OS_CLOUD'] = 'tether-admin'
    flavor = 'fl-' + uuid.uuid4().hex[:6]
    vtype = 'vt-' + uuid.uuid4().hex[:6]
    for args in (('flavor', 'create', '--private', '--ram', '64', '--disk',
                  '1', '--vcpus', '1', flavor),
                 ('flavor', 'set', '--project', 'demo', flavor),
                 ('volume', 'type', 'create', '--private', vtype),
                 ('volume', 'type', 'set', '--project', 'demo', vtype)):
        proc = run_cli(*args)
        assert proc.returncode == 0, (args, proc.stderr)
    admin = _connect(aio, 'tether-admin')
    try:
        assert [a['tenant_id'] for a in admin.compute.get_flavor_access(
            admin.compute.find_flavor(flavor))] == ['demo']
        found = admin.block_storage.find_type(vtype)
        assert [a['project_id'] for a in admin.block_storage.get_type_access(
            found)] == ['demo']
    finally:
        admin.compute.delete_flavor(admin.compute.find_flavor(flavor))
        admin.block_storage.delete_type(admin.block_storage.find_type(vtype))
        admin.close()


def test_the_cli_boots_servers_without_a_network(aio):
    admin = _connect(aio, 'tether-admin')
    image = image_helpers.upload(admin, helpers.disk_bytes(),
                                 visibility='public')
    env = dict(os.environ, OS_CLIENT_CONFIG_FILE=aio.impl.clouds_path,
               OS_CLOUD='tether')
    names = []
    try:
        # Without a network option the CLI asks for networks "auto".
        for options in ([], ['--nic', 'none'], ['--no-network']):
            name = 'cli-' + uuid.uuid4().hex[:6]
            proc = openstack_cli.openstack_run(
                ['server', 'create', '--image', image.id,
                 '--flavor', 'm1.nano', *options, '--wait', '-f', 'value',
                 '-c', 'status', name], env=env)
            assert proc.returncode == 0, (options, proc.stderr)
            names.append(name)
            assert proc.stdout.strip() == 'ACTIVE'
        # A network by name needs the network service.
        proc = openstack_cli.openstack_run(
            ['server', 'create', '--image', image.id,
             '--flavor', 'm1.nano', '--network', 'private', 'no-net'],
            env=env)
        assert proc.returncode != 0
        assert 'tether-aio serves no network service' in proc.stderr
    finally:
        demo = _connect(aio, 'tether')
        for name in names:
            demo.delete_server(name, wait=True, timeout=60)
        admin.image.delete_image(image)
        admin.close()


def test_clouds_yaml_declares_every_other_official_service_absent(aio):
    clouds = aio_clouds.clouds_yaml(aio.impl.served())['clouds']
    assert set(clouds) == {'tether', 'tether-alt', 'tether-admin'}
    demo = clouds['tether']
    assert demo['auth'] == {'token': 'demo:demo',
                            'endpoint': aio.compute_url}
    assert demo['compute_endpoint_override'] == aio.compute_url
    assert demo['block_storage_endpoint_override'] == aio.volume_url
    assert demo['image_endpoint_override'] == aio.image_url
    assert demo['has_network'] is False
    assert demo['has_object_store'] is False
    assert 'has_compute' not in demo and 'has_image' not in demo
    assert demo['has_shared_file_system'] is False
    assert 'shared_file_system_endpoint_override' not in demo
    manila = 'http://127.0.0.1:8786'
    shared = aio_clouds.clouds_yaml(aio_clouds.endpoints(
        aio.volume_url, aio.compute_url, aio.image_url,
        manila))['clouds']['tether']
    assert shared['shared_file_system_endpoint_override'] == manila
    assert shared['shared_file_system_api_version'] == '2'
    assert 'has_shared_file_system' not in shared
