"""Choose the backend for a new volume from the live services' reports
(of services neither disabled nor frozen):
the pools with room for it, in its zone, whose capabilities satisfy the
extra specs of its type (Cinder's capacity, availability zone and
capabilities filters), the one with the most room."""

from oslo_config import cfg
from oslo_utils import strutils

from tether.db.volume import service as db_services
from tether.objects import fields

CONF = cfg.CONF


def _room_gb(caps):
    """Provisionable GiB left on a backend, thin provisioning included."""
    total = caps.get('total_capacity_gb') or 0
    free = caps.get('free_capacity_gb') or 0
    reserved = total * caps.get('reserved_percentage', 0) / 100.0
    ratio = caps.get('max_over_subscription_ratio', 1.0)
    provisioned = caps.get('provisioned_capacity_gb', 0)
    if caps.get('thin_provisioning_support'):
        return min(total * ratio - provisioned, (free - reserved) * ratio)
    return free - reserved


def _number(op):
    def compare(value, wanted):
        return op(float(value), float(wanted))
    return compare


def _bool(value):
    return strutils.bool_from_string(value)


# The operators of an extra spec's value (Cinder's extra_specs_ops):
# "<op> operand"; a value without one must equal the capability.
_OPERATORS = {
    '=': _number(lambda a, b: a >= b),
    '==': _number(lambda a, b: a == b),
    '!=': _number(lambda a, b: a != b),
    '>=': _number(lambda a, b: a >= b),
    '<=': _number(lambda a, b: a <= b),
    '<in>': lambda value, wanted: wanted in value,
    '<is>': lambda value, wanted: _bool(value) is _bool(wanted),
    's==': lambda a, b: a == b,
    's!=': lambda a, b: a != b,
    's<': lambda a, b: a < b,
    's<=': lambda a, b: a <= b,
    's>': lambda a, b: a > b,
    's>=': lambda a, b: a >= b,
}


def matches(value, wanted):
    """Whether capability ``value`` satisfies extra spec value
    ``wanted``."""
    words = wanted.split()
    op = words[0] if words else None
    if op == '<or>':
        choices = words[1::2]
        return str(value) in choices
    method = _OPERATORS.get(op)
    if method is None:
        return str(value) == wanted if not isinstance(value, str) \
            else value == wanted
    if value is None or len(words) < 2:
        return False
    try:
        return bool(method(value, words[1]))
    except (TypeError, ValueError):
        return False


def satisfies(capabilities, extra_specs):
    """Whether a pool's ``capabilities`` satisfy a type's extra specs:
    each key without a scope, or of the ``capabilities:`` scope, names a
    capability the pool must report with a matching value; keys of other
    scopes (``RESKEY:``, vendors') are not the scheduler's."""
    for key, wanted in (extra_specs or {}).items():
        path = key.split(':')
        if len(path) > 1:
            if path[0] != 'capabilities':
                continue
            path = path[1:]
        value = capabilities
        for part in path:
            if not isinstance(value, dict) or part not in value:
                return False
            value = value[part]
        values = value if isinstance(value, list) else [value]
        if not any(matches(v, wanted) for v in values):
            return False
    return True


def pool_capabilities(service_caps, pool):
    """What a pool offers: its backend's capabilities with its own."""
    merged = {k: v for k, v in service_caps.items() if k != 'pools'}
    merged.update(pool)
    return merged


def choose_backend(context, size, availability_zone=None, extra_specs=None):
    """``host@backend#pool`` with the most room for ``size`` whose
    capabilities satisfy ``extra_specs``, or None."""
    best = None
    for service in db_services.get_all(context,
                                       binary=fields.ServiceBinary.VOLUME):
        if service.disabled or service.frozen or \
                not service.is_up(CONF.service_down_time):
            continue
        if availability_zone and \
                service.availability_zone != availability_zone:
            continue
        caps = service.capabilities
        for pool in caps.get('pools', [caps]):
            if not satisfies(pool_capabilities(caps, pool), extra_specs):
                continue
            room = _room_gb(pool)
            if room >= size and (best is None or room > best[0]):
                best = (room, '%s#%s' % (service.host,
                                         pool.get('pool_name', 'default')))
    return best[1] if best else None
