"""What a tether-aio API worker loads: none of the heavy modules it has
no use for (issue #16: each API worker within 90 MiB).

A real tether-aio with one API worker (``--api-workers 1``), on the
embedded default (noauth), serves requests of both APIs; when it stops,
the worker writes the names in its ``sys.modules`` to a file (a
``sitecustomize`` on PYTHONPATH, loaded by every Python the test starts,
writes them at exit in the worker process alone, which has
TETHER_AIO_WORKER in its environment).
"""

import os
import textwrap
import uuid

import pytest
import requests
import yaml

from tests.functional import aio_subprocess

# Each module (and its submodules) that an API worker serving these
# requests must not load, and why it has no use for it.
KEPT_OUT = {
    'eventlet': 'tether runs on native threads; futurist, oslo.utils and '
                'oslo.messaging import it only if it is there '
                '(tether/__init__.py)',
    'keystonemiddleware': 'only for auth_strategy = keystone '
                          '(tether/api/auth.py)',
    'keystoneclient': 'keystonemiddleware\'s',
    'openstack': 'only once the API calls another service '
                 '(tether/clients.py)',
    'cryptography': 'only to read or make a key pair '
                    '(tether/compute/api/keypairs.py)',
    'libvirt': 'only the compute host talks to the hypervisor',
    'tether.volume.manager': 'the volume host\'s',
    'tether.volume.ops': 'the volume host\'s',
    'tether.compute.manager': 'the compute host\'s',
    'tether.compute.ops': 'the compute host\'s',
    'tether.drivers.volume': 'the volume host\'s',
    'tether.drivers.virt.libvirt': 'the compute host\'s',
    'tether.drivers.qemu_img': 'the hosts\' (tether.images names the '
                               'disk formats the APIs accept)',
    'sqlalchemy.dialects.postgresql': 'only on PostgreSQL (the volume '
                                      'default types\' INSERT takes the '
                                      'engine\'s own dialect)',
}

CONNECTOR = {'host': 'modules-compute', 'initiator': 'iqn.modules',
             'mountpoint': '/dev/vdb'}

SITECUSTOMIZE = textwrap.dedent('''\
    import atexit
    import os
    import sys


    def _write_modules():
        path = os.path.join(os.environ['TETHER_TEST_MODULES_DIR'],
                            'worker-%d' % os.getpid())
        with open(path, 'w') as f:
            f.write('\\n'.join(sorted(sys.modules)))


    if 'TETHER_AIO_WORKER' in os.environ:
        atexit.register(_write_modules)
    ''')


def kept_out_loaded(modules):
    """Each name of KEPT_OUT loaded (itself or a submodule) among
    ``modules``, with the reason it should not be."""
    return {name: reason for name, reason in KEPT_OUT.items()
            if any(m == name or m.startswith(name + '.') for m in modules)}


@pytest.fixture
def worker_modules(tmp_path, monkeypatch):
    """Start a tether-aio with one API worker; yield (volume URL,
    compute URL, a function that stops it and returns the modules its
    worker had loaded)."""
    site_dir = tmp_path / 'site'
    site_dir.mkdir()
    (site_dir / 'sitecustomize.py').write_text(SITECUSTOMIZE)
    dump_dir = tmp_path / 'modules'
    dump_dir.mkdir()
    monkeypatch.setenv('PYTHONPATH', os.pathsep.join(
        [str(site_dir)] + [p for p in [os.environ.get('PYTHONPATH')] if p]))
    monkeypatch.setenv('TETHER_TEST_MODULES_DIR', str(dump_dir))
    proc, volume_url = aio_subprocess.start(
        tmp_path / 'state', '--api-workers', '1',
        '--image-url', aio_subprocess.NO_GLANCE)
    stopped = []

    def stop():
        stopped.append(True)
        aio_subprocess.stop(proc)
        dumps = list(dump_dir.iterdir())
        assert len(dumps) == 1, 'one worker, one list: %s' % dumps
        return dumps[0].read_text().split()

    try:
        yield volume_url, _compute_url(tmp_path / 'state'), stop
    finally:
        if not stopped:
            aio_subprocess.stop(proc)


def _compute_url(state_dir):
    """The compute API's URL, from the clouds.yaml tether-aio wrote."""
    with open(state_dir / 'clouds.yaml') as f:
        return yaml.safe_load(f)['clouds']['tether'][
            'compute_endpoint_override']


def test_an_api_worker_loads_none_of_the_heavy_modules(worker_modules,
                                                       wait):
    volume_url, compute_url, stop = worker_modules
    session = requests.Session()
    session.headers['X-Auth-Token'] = 'demo:demo'
    # The volume API: a volume made (a cast to the volume host) and read.
    resp = session.post(volume_url + '/demo/volumes',
                        json={'volume': {'size': 1}})
    assert resp.status_code == 202, resp.text
    volume_id = resp.json()['volume']['id']
    wait(lambda: session.get(volume_url + '/demo/volumes/' + volume_id)
         .json()['volume']['status'] == 'available', what='volume available')
    assert session.get(volume_url + '/demo/volumes/detail').status_code == 200
    # An attachment naming a server, connected and deleted: the volume API
    # asks the compute API whether the server uses it (a keystoneauth
    # adapter, not openstacksdk).
    version = {'OpenStack-API-Version': 'volume 3.54'}
    resp = session.post(volume_url + '/demo/attachments', headers=version,
                        json={'attachment': {
                            'volume_uuid': volume_id,
                            'instance_uuid': str(uuid.uuid4()),
                            'connector': CONNECTOR}})
    assert resp.status_code == 200, resp.text
    resp = session.delete(volume_url + '/demo/attachments/'
                          + resp.json()['attachment']['id'], headers=version)
    assert resp.status_code == 200, resp.text
    # The compute API: its lists.
    for path in ('/servers/detail', '/flavors', '/os-keypairs'):
        resp = session.get(compute_url + path)
        assert resp.status_code == 200, (path, resp.text)

    modules = stop()
    assert 'tether.api.volume.app' in modules  # the worker's own list
    assert kept_out_loaded(modules) == {}


def test_the_check_finds_a_heavy_module():
    found = kept_out_loaded(['tether', 'openstack.connection', 'eventlet',
                             'tether.drivers.virt.driver',
                             'tether.volume.managers',
                             'tether.volume.manager'])
    assert sorted(found) == ['eventlet', 'openstack', 'tether.volume.manager']
