"""The QoS specs a volume's connection carries to the compute host
(``data.qos_specs``, as Cinder's volume manager adds them), which its
libvirt driver applies as the disk's ``<iotune>``."""

from tether.db.volume import qos_specs as db_qos

# The keys that scale with the volume's size (Cinder's per-GiB keys,
# resolved when the connection is made).
PER_GB_KEYS = ('read_iops_sec', 'read_bytes_sec', 'write_iops_sec',
               'write_bytes_sec', 'total_iops_sec', 'total_bytes_sec')
FRONT_END_CONSUMERS = ('front-end', 'both')


def _int(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def resolve(specs, size):
    """The keys of front-end specs for a volume of ``size`` GiB: each of
    Cinder's per-GiB keys (``read_iops_sec_per_gb``, with ``_per_gb_min``
    and ``_max``) becomes its plain key, the others are kept."""
    specs = dict(specs)
    for key in PER_GB_KEYS:
        per_gb = _int(specs.pop('%s_per_gb' % key, None))
        minimum = _int(specs.pop('%s_per_gb_min' % key, None)) or 0
        if per_gb is None:
            continue
        value = max(per_gb * size, minimum)
        maximum = _int(specs.pop('%s_max' % key, None))
        specs[key] = str(min(value, maximum) if maximum is not None
                         else value)
    return specs


def for_connection(context, volume):
    """The ``qos_specs`` of a volume's connection info: the keys of its
    type's specs if the compute host applies them (consumer front-end or
    both), resolved for the volume's size; else None."""
    qos = db_qos.of_type(context, volume.volume_type_id)
    if qos is None or qos.consumer not in FRONT_END_CONSUMERS:
        return None
    return resolve(qos.specs, volume.size)
