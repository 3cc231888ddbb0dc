"""The scheduler's match of a type's extra specs against a pool's
capabilities (Cinder's capabilities filter and its operators)."""

import pytest

from tether.volume import scheduler

CAPS = {'vendor_name': 'tether', 'storage_protocol': 'nfs',
        'volume_backend_name': 'local', 'multiattach': True,
        'thin_provisioning_support': True, 'free_capacity_gb': 10.5,
        'total_capacity_gb': 20, 'nested': {'depth': '2'},
        'protocols': ['nfs', 'iSCSI']}


@pytest.mark.parametrize('specs', [
    {}, None,
    {'vendor_name': 'tether', 'storage_protocol': 'nfs'},
    {'capabilities:volume_backend_name': 'local'},
    {'multiattach': '<is> True', 'thin_provisioning_support': '<is> true'},
    {'free_capacity_gb': '>= 10', 'total_capacity_gb': '== 20'},
    {'free_capacity_gb': '= 10'},
    {'free_capacity_gb': '<= 11', 'total_capacity_gb': '!= 21'},
    {'storage_protocol': '<in> nf'},
    {'storage_protocol': '<or> iSCSI <or> nfs'},
    {'vendor_name': 's== tether', 'volume_backend_name': 's> a'},
    {'capabilities:nested:depth': '2'},
    {'protocols': 'iSCSI'},
    # Other scopes are not the scheduler's.
    {'RESKEY:availability_zones': 'z', 'vendor:thing': 'x'},
])
def test_satisfied(specs):
    assert scheduler.satisfies(CAPS, specs)


@pytest.mark.parametrize('specs', [
    {'vendor_name': 'other'},
    {'storage_protocol': 'NFS'},
    {'no_such_capability': 'x'},
    {'capabilities:no_such_capability': 'x'},
    {'capabilities:nested:other': '2'},
    {'multiattach': '<is> False'},
    {'free_capacity_gb': '>= 11'},
    {'free_capacity_gb': '>= lots'},
    {'storage_protocol': '<or> iSCSI <or> FC'},
    {'vendor_name': 's!= tether'},
    {'free_capacity_gb': '>='},
    {'protocols': 'FC'},
])
def test_not_satisfied(specs):
    assert not scheduler.satisfies(CAPS, specs)


def test_a_pool_has_its_backends_capabilities_and_its_own():
    caps = {'vendor_name': 'tether', 'pools': [{'pool_name': 'p'}],
            'free_capacity_gb': 1}
    merged = scheduler.pool_capabilities(caps, {'pool_name': 'p',
                                                'free_capacity_gb': 5})
    assert merged == {'vendor_name': 'tether', 'pool_name': 'p',
                      'free_capacity_gb': 5}
