"""The policy enforcer (oslo.policy) of both APIs.

Each API registers its rules when its app is built (``init`` with
``tether.policies.volume.list_rules()`` or the compute ones); tether-aio's
two APIs share this one enforcer. The personas of tether.policies.base
are always registered.
"""

import threading
import time

from oslo_config import cfg
from oslo_policy import policy

from tether.policies import base

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


def init(conf=None, rules=()):
    """The enforcer, made on first use, with ``rules`` registered (those
    of the APIs built before stay registered)."""
    global _ENFORCER, _next_reload
    with _LOCK:
        if _ENFORCER is None:
            enforcer = policy.Enforcer(conf or cfg.CONF)
            enforcer.register_defaults(base.list_rules())
            _ENFORCER = enforcer
        new = [r for r in rules if r.name not in _ENFORCER.registered_rules]
        if new or _next_reload == 0.0:
            _ENFORCER.register_defaults(new)
            # The defaults join the rules when the files are read: now.
            _ENFORCER.load_rules(force_reload=True)
            _ENFORCER.use_conf = False
            _decisions.clear()
            _next_reload = time.monotonic() + RELOAD_INTERVAL
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
    enforcer = _ENFORCER or init()
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
