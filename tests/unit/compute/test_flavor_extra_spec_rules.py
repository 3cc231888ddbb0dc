"""Flavor extra specs as Nova checks them from 2.86
(tether.compute.api.flavor_extra_spec_rules)."""

import pytest

from tether.compute.api import flavor_extra_spec_rules as rules
from tether.compute import flavor_exception


@pytest.mark.parametrize('key,value', [
    ('hw:cpu_policy', 'mixed'), ('hw:cpu_realtime', 'True'),
    ('hw:cpu_realtime_mask', '^0-1'), ('hw:numa_cpus.12', '0,2-3'),
    ('hw:numa_mem.0', '1024'), ('hw:mem_page_size', '1GiB'),
    ('hw:mem_page_size', 'large'), ('hw:serial_port_count', '0'),
    ('hw:redirected_usb_ports', '15'), ('hw:tpm_version', '2.0'),
    ('hw_rng:allowed', 'no'), ('hw_video:ram_max_mb', '0'),
    ('trait:COMPUTE_STORAGE_VIRTIO_FS', 'required'),
    ('trait_group-1:CUSTOM_A_1', 'forbidden'),
    ('resources:MEMORY_MB', '-1'), ('resources2:CUSTOM_X', '3'),
    ('os:secure_boot', 'whatever'), ('foo:bar', ''), ('plain', 'x'),
])
def test_taken(key, value):
    rules.check(key, value)


@pytest.mark.parametrize('key,value,words', [
    ('hw:cpu_policy', 'Mixed', 'is not one of'),
    ('hw:numa_nodes', '0', 'less than the min value'),
    ('hw:redirected_usb_ports', '16', 'greater than the max value'),
    ('hw:pmu', '2', 'boolean-like'),
    ('hw:numa_cpus.1', 'a-b', 'is not of the format'),
    ('hw:cpu_policyx', 'shared', 'does not appear to be a valid'),
    ('hw_rng:other', '1', 'does not appear to be a valid'),
    ('trait:COMPUTE_NOPE', 'required', 'does not appear to be a valid'),
    ('trait:CUSTOM_lower', 'required', 'does not appear to be a valid'),
    ('trait:HW_CPU_X86_AVX2', 'maybe', 'is not one of: required'),
    ('resources:VCPU', '1.5', 'not a valid integer'),
    ('resources' + 'x' * 65 + ':VCPU', '1', None),
])
def test_refused(key, value, words):
    if words is None:
        # A group suffix longer than 64: not the resources namespace.
        rules.check(key, value)
        return
    with pytest.raises(flavor_exception.FlavorExtraSpecInvalid) as raised:
        rules.check(key, value)
    assert words in str(raised.value)
    assert str(raised.value).startswith('Validation failed; ')
