"""Which flavor extra specs a flavor may be given from compute 2.86, as
Nova validates them, for the namespaces tether knows: ``hw``, ``hw_rng``,
``hw_video``, ``trait`` and ``resources`` (the last two with an optional
request group suffix, ``trait1:``). In those, a key Nova knows must have
a value of its kind, and a key it does not know is refused; a key of
another namespace (``os:``, ``quota:``, ``aggregate_instance_extra_specs:``
...) or of none is taken as it is, as Nova takes a namespace it has no
validator for.
"""

import re

import os_resource_classes
import os_traits
from oslo_utils import strutils

from tether.compute import flavor_exception

# A request group suffix of trait and resources keys.
_GROUP = r'[a-zA-Z0-9_-]{0,64}'
# A map of guest (or host) CPUs: 0-3,^2,5.
_CPU_MASK = r'\^?\d+((-\d+)?(,\^?\d+(-\d+)?)?)*'

NAMESPACES = ('hw', 'hw_rng', 'hw_video', 'trait' + _GROUP,
              'resources' + _GROUP)


class _Bool:
    def check(self, value):
        try:
            strutils.bool_from_string(value, strict=True)
        except ValueError:
            return "'%s' is not a valid boolean-like value" % value


class _Int:
    def __init__(self, low=None, high=None):
        self.low, self.high = low, high

    def check(self, value):
        try:
            number = int(value)
        except ValueError:
            return "'%s' is not a valid integer value" % value
        if self.high is not None and number > self.high:
            return "'%s' is greater than the max value of '%s'" % (
                value, self.high)
        if self.low is not None and number < self.low:
            return "'%s' is less than the min value of '%s'" % (
                value, self.low)


class _Enum:
    def __init__(self, *values):
        self.values = values

    def check(self, value):
        if value not in self.values:
            return "'%s' is not one of: %s" % (value, ', '.join(self.values))


class _Format:
    def __init__(self, pattern):
        self.pattern = pattern

    def check(self, value):
        if not re.fullmatch(self.pattern, value):
            return "'%s' is not of the format '%s'" % (value, self.pattern)


_POSITIVE = _Int(low=1)
_COUNT = _Int(low=0)

# Nova's keys of the hw, hw_rng and hw_video namespaces (2026.2).
_KEYS = {
    'hw:cpu_realtime': _Bool(),
    'hw:cpu_realtime_mask': _Format(r'(\^)?\d+((-\d+)?(,\^?\d+(-\d+)?)?)*'),
    'hw:hide_hypervisor_id': _Bool(),
    'hw:cpu_policy': _Enum('dedicated', 'shared', 'mixed'),
    'hw:cpu_thread_policy': _Enum('prefer', 'isolate', 'require'),
    'hw:emulator_threads_policy': _Enum('isolate', 'share'),
    'hw:cpu_dedicated_mask': _Format(_CPU_MASK),
    # Huge pages: what virtio-fs shares may use (compute 2.97).
    'hw:mem_page_size': _Format(r'(large|small|any|\d+([kKMGT]i?)?'
                                r'(b|bit|B)?)'),
    'hw:locked_memory': _Bool(),
    'hw:numa_nodes': _POSITIVE,
    'hw:pci_numa_affinity_policy': _Enum('required', 'preferred', 'legacy',
                                         'socket'),
    'hw:cpu_sockets': _POSITIVE,
    'hw:cpu_cores': _POSITIVE,
    'hw:cpu_threads': _POSITIVE,
    'hw:cpu_max_sockets': _POSITIVE,
    'hw:cpu_max_cores': _POSITIVE,
    'hw:cpu_max_threads': _POSITIVE,
    'hw:boot_menu': _Bool(),
    'hw:vif_multiqueue_enabled': _Bool(),
    'hw:mem_encryption': _Bool(),
    'hw:mem_encryption_model': _Enum('amd-sev', 'amd-sev-es', 'amd-sev-snp'),
    'hw:pmem': _Format(r'([a-zA-Z0-9_]+(,)?)+'),
    'hw:pmu': _Bool(),
    'hw:serial_port_count': _COUNT,
    'hw:tpm_model': _Enum('tpm-tis', 'tpm-crb'),
    'hw:tpm_version': _Enum('1.2', '2.0'),
    'hw:tpm_secret_security': _Enum('user', 'host', 'deployment'),
    'hw:watchdog_action': _Enum('none', 'pause', 'poweroff', 'reset',
                                'disabled'),
    'hw:viommu_model': _Enum('intel', 'smmuv3', 'virtio', 'auto'),
    'hw:virtio_packed_ring': _Bool(),
    'hw:sound_model': _Enum('sb16', 'es1370', 'pcspk', 'ac97', 'ich6',
                            'ich9', 'usb', 'virtio'),
    'hw:usb_model': _Enum('none', 'nec-xhci', 'qemu-xhci'),
    'hw:redirected_usb_ports': _Int(low=0, high=15),
    'hw:ephemeral_encryption': _Bool(),
    'hw:ephemeral_encryption_format': _Enum('plain', 'luks', 'luksv2'),
    'hw_rng:allowed': _Bool(),
    'hw_rng:rate_bytes': _COUNT,
    'hw_rng:rate_period': _COUNT,
    'hw_video:ram_max_mb': _COUNT,
}

_TRAIT_VALUE = _Enum('required', 'forbidden')
_TRAITS = frozenset(os_traits.get_traits())
_RESOURCE_CLASSES = frozenset(os_resource_classes.STANDARDS)

# Keys with a parameter in their name, and what their value must be.
_PATTERNS = (
    (r'hw:numa_cpus\.\d+', _Format(_CPU_MASK)),
    (r'hw:numa_mem\.\d+', _POSITIVE),
)


def _rule(key):
    """The check of ``key``'s value, or None if Nova knows no such key."""
    found = _KEYS.get(key)
    if found is not None:
        return found
    for pattern, check in _PATTERNS:
        if re.fullmatch(pattern, key):
            return check
    namespace, _, name = key.partition(':')
    if re.fullmatch('trait' + _GROUP, namespace) and (
            name in _TRAITS or re.fullmatch(r'CUSTOM_[A-Z0-9_]+', name)):
        return _TRAIT_VALUE
    if re.fullmatch('resources' + _GROUP, namespace) and (
            name in _RESOURCE_CLASSES or
            re.fullmatch(r'CUSTOM_[A-Z0-9_]+', name)):
        return _Int()
    return None


def check(key, value):
    """Raise FlavorExtraSpecInvalid unless ``key`` may have ``value`` (a
    string)."""
    rule = _rule(key)
    if rule is None:
        namespace = key.split(':', 1)[0] if ':' in key else None
        if namespace is not None and any(
                re.fullmatch(n, namespace) for n in NAMESPACES):
            raise flavor_exception.FlavorExtraSpecInvalid(
                reason="extra spec '%s' does not appear to be a valid "
                       "extra spec" % key)
        return
    problem = rule.check(value)
    if problem:
        raise flavor_exception.FlavorExtraSpecInvalid(
            reason='%s (extra spec %s)' % (problem, key))
