"""Policy in code: every rule's default, and the enforcer."""

import itertools
import threading
import time

from oslo_config import cfg
from oslo_policy import policy

from tether.policies.volume import attachments
from tether.policies.volume import availability_zones
from tether.policies import base
from tether.policies import compute
from tether.policies.volume import limits
from tether.policies.volume import quota_sets
from tether.policies.volume import services
from tether.policies.volume import type_extra_specs
from tether.policies.volume import types
from tether.policies.volume import volumes

# One module per resource; each has list_rules().
_MODULES = [base, volumes, quota_sets, limits, types, type_extra_specs,
            services, availability_zones, attachments, compute]

# How often policy files are looked at for changes. oslo.policy looks on
# every check, which costs dozens of stat() calls per request; operators'
# edits take effect within this many seconds instead.
RELOAD_INTERVAL = 5.0
# Decisions remembered between reloads: they depend only on the rules, the
# target and the caller's credentials, all of which make the key.
DECISION_CACHE_SIZE = 4096

_ENFORCER = None
_LOCK = threading.Lock()
_next_reload = 0.0
_decisions = {}


def list_rules():
    return list(itertools.chain.from_iterable(
        m.list_rules() for m in _MODULES))


def get_enforcer():
    """The enforcer, for oslopolicy-policy-generator and friends."""
    cfg.CONF([], project='tether')
    return init()


def init(conf=None):
    global _ENFORCER
    if _ENFORCER is None:
        with _LOCK:
            if _ENFORCER is None:
                enforcer = policy.Enforcer(conf or cfg.CONF)
                enforcer.register_defaults(list_rules())
                enforcer.load_rules()
                _ENFORCER = enforcer
    return _ENFORCER


def reset():
    global _ENFORCER, _next_reload
    with _LOCK:
        if _ENFORCER is not None:
            _ENFORCER.clear()
        _ENFORCER = None
        _next_reload = 0.0
        _decisions.clear()


def _reload_if_due(enforcer):
    """Look at the policy files now and then, not on every check."""
    global _next_reload
    now = time.monotonic()
    if now < _next_reload:
        return
    with _LOCK:
        if now < _next_reload:
            return
        enforcer.use_conf = True
        enforcer.load_rules()
        enforcer.use_conf = False
        _decisions.clear()
        _next_reload = now + RELOAD_INTERVAL


def _hashable(value):
    if isinstance(value, (list, tuple, set)):
        return tuple(_hashable(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _hashable(v)) for k, v in value.items()))
    return value


def _key(action, target, creds):
    """Everything a rule can read; None if some value cannot be hashed."""
    try:
        key = (action, _hashable(target), _hashable(dict(creds)))
        hash(key)
        return key
    except TypeError:
        return None


def authorize(context, action, target):
    enforcer = init()
    _reload_if_due(enforcer)
    creds = context.to_policy_values()
    key = _key(action, target, creds)
    if key is not None:
        decision = _decisions.get(key)
        if decision is not None:
            return decision
    decision = bool(enforcer.authorize(action, target, creds,
                                       do_raise=False))
    if key is not None:
        if len(_decisions) >= DECISION_CACHE_SIZE:
            _decisions.clear()
        _decisions[key] = decision
    return decision
