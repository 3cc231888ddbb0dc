"""Policy in code: every rule's default, and the enforcer."""

import itertools
import threading

from oslo_config import cfg
from oslo_policy import policy

from tether.policies import availability_zones
from tether.policies import base
from tether.policies import limits
from tether.policies import quota_sets
from tether.policies import services
from tether.policies import type_extra_specs
from tether.policies import types
from tether.policies import volumes

_ENFORCER = None
_LOCK = threading.Lock()

# One module per resource; each has list_rules().
_MODULES = [base, volumes, quota_sets, limits, types, type_extra_specs,
            services, availability_zones]


def list_rules():
    return list(itertools.chain.from_iterable(
        m.list_rules() for m in _MODULES))


def get_enforcer():
    """The enforcer, for oslopolicy-sample-generator and friends."""
    cfg.CONF([], project='tether')
    return init()


def init(conf=None):
    global _ENFORCER
    with _LOCK:
        if _ENFORCER is None:
            _ENFORCER = policy.Enforcer(conf or cfg.CONF)
            _ENFORCER.register_defaults(list_rules())
            _ENFORCER.load_rules()
    return _ENFORCER


def reset():
    global _ENFORCER
    with _LOCK:
        if _ENFORCER is not None:
            _ENFORCER.clear()
        _ENFORCER = None


def authorize(context, action, target):
    enforcer = init()
    creds = context.to_policy_values()
    return enforcer.authorize(action, target, creds, do_raise=False)
