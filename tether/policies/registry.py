"""Every policy rule of both APIs, for oslo.policy's tools.

``oslopolicy-sample-generator`` (``tox -e genpolicy``) and the policy
checkers find these functions through setup.cfg's entry points. The
services themselves never import this module: each API registers only
its own rules with the enforcer when its app is built.
"""

from oslo_config import cfg

from tether.policies import base
from tether.policies import compute
from tether.policies import enforcer
from tether.policies import volume


def list_rules():
    return base.list_rules() + volume.list_rules() + compute.list_rules()


def get_enforcer():
    """An enforcer that knows every rule (``oslo.policy.enforcer``)."""
    cfg.CONF([], project='tether')
    return enforcer.init(rules=list_rules())
