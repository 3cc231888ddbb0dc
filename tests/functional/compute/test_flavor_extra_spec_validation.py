"""Flavor extra specs checked as Nova checks them from 2.86: in the
namespaces tether knows (hw, hw_rng, hw_video, trait, resources) a key
must be one Nova knows, with a value of its kind; other namespaces, and
keys without one, are taken as they are; below 2.86 nothing is checked.
A refused request stores nothing."""

import uuid

import pytest

from tests.functional import cli

ADMIN = ('admin', 'admin')
GOOD = {
    'hw:cpu_policy': 'dedicated', 'hw:numa_nodes': '2',
    'hw:numa_cpus.0': '0-1,^1', 'hw:numa_mem.1': '512',
    'hw:mem_page_size': '2MB', 'hw:cpu_realtime': 'yes',
    'hw:redirected_usb_ports': '15', 'hw_rng:rate_bytes': '0',
    'hw_video:ram_max_mb': '64',
    'trait:HW_CPU_X86_AVX2': 'required', 'trait1:CUSTOM_FAST': 'forbidden',
    'resources:VCPU': '2', 'resources_g1:CUSTOM_GPU': '1',
    # Namespaces tether does not check, and no namespace.
    'os:secure_boot': 'anything', 'quota:cpu_shares': 'x',
    'aggregate_instance_extra_specs:ssd': 'true', 'color': 'red',
}
BAD = [
    ('hw:cpu_policy', 'bogus', 'is not one of: dedicated, shared, mixed'),
    ('hw:numa_nodes', '0', 'less than the min value'),
    ('hw:numa_nodes', 'two', 'not a valid integer'),
    ('hw:redirected_usb_ports', '16', 'greater than the max value'),
    ('hw:cpu_realtime', 'perhaps', 'boolean-like'),
    ('hw:mem_page_size', 'huge', 'is not of the format'),
    ('hw:numa_cpus.x', '0', 'does not appear to be a valid extra spec'),
    ('hw:no_such_key', '1', 'does not appear to be a valid extra spec'),
    ('hw_rng:rate_bytes', '-1', 'less than the min value'),
    ('trait:NOT_A_TRAIT', 'required', 'does not appear to be a valid'),
    ('trait:HW_CPU_X86_AVX2', 'wanted', 'is not one of: required'),
    ('resources:VCPU', 'two', 'not a valid integer'),
    ('resources:NO_SUCH_CLASS', '1', 'does not appear to be a valid'),
]


@pytest.fixture
def flavor(aio):
    admin = aio.admin()
    made = admin.compute.create_flavor(
        name='fev-' + uuid.uuid4().hex[:8], ram=64, vcpus=1, disk=0)
    yield made
    admin.compute.delete_flavor(made.id)


def _specs(http, flavor_id):
    resp = http.get('/flavors/%s/os-extra_specs' % flavor_id)
    assert resp.status_code == 200, resp.text
    return resp.json()['extra_specs']


def test_known_keys_with_good_values_and_other_namespaces(aio, flavor):
    http = aio.compute_http(*ADMIN, version='2.86')
    resp = http.post('/flavors/%s/os-extra_specs' % flavor.id,
                     json={'extra_specs': GOOD})
    assert resp.status_code == 200, resp.text
    assert _specs(http, flavor.id) == GOOD
    # Numbers are taken as their strings.
    resp = http.put('/flavors/%s/os-extra_specs/hw:numa_nodes' % flavor.id,
                    json={'hw:numa_nodes': 4})
    assert resp.status_code == 200, resp.text


@pytest.mark.parametrize('key,value,words', BAD)
def test_bad_keys_and_values_are_400_and_store_nothing(aio, flavor, key,
                                                       value, words):
    http = aio.compute_http(*ADMIN, version='2.86')
    base = '/flavors/%s/os-extra_specs' % flavor.id
    # With a good key beside it: neither is stored.
    resp = http.post(base, json={'extra_specs': {'color': 'red',
                                                 key: value}})
    assert resp.status_code == 400, resp.text
    body = resp.json()['badRequest']
    assert words in body['message'] and key in body['message'], body
    assert body['error_code'] == 'compute.flavor.extra_spec_invalid'
    resp = http.put(base + '/' + key, json={key: value})
    assert resp.status_code == 400, resp.text
    assert _specs(http, flavor.id) == {}
    # Before 2.86 Nova checks nothing.
    old = aio.compute_http(*ADMIN, version='2.85')
    resp = old.put(base + '/' + key, json={key: value})
    assert resp.status_code == 200, resp.text
    assert _specs(http, flavor.id) == {key: value}


def test_the_openstack_cli(aio, flavor, tmp_path):
    osc = cli.CLI(aio, tmp_path, 'admin', 'admin')
    with pytest.raises(AssertionError) as refused:
        osc.run('--os-compute-api-version', '2.86', 'flavor', 'set',
                '--property', 'hw:cpu_policy=bogus', flavor.name)
    assert 'is not one of' in str(refused.value)
    osc.run('--os-compute-api-version', '2.86', 'flavor', 'set',
            '--property', 'hw:cpu_policy=mixed', flavor.name)
    assert osc.json('flavor', 'show', flavor.name)['properties'] == {
        'hw:cpu_policy': 'mixed'}
