"""Policy decisions are remembered only for identical callers and targets."""

from oslo_config import cfg
import pytest

from tether import context as t_context
from tether.policies import enforcer
from tether.policies import volume as volume_policies
from tether.policies.volume import volume_actions as actions_policy
from tether.policies.volume import volumes as volume_policy

CONF = cfg.CONF


@pytest.fixture(autouse=True)
def volume_rules():
    """The volume API's rules, registered as its app registers them."""
    CONF([], project='tether')
    enforcer.init(rules=volume_policies.list_rules())


def _ctx(project, roles, **kwargs):
    return t_context.RequestContext(user_id='u', project_id=project,
                                    roles=roles, **kwargs)


def test_same_caller_other_project_is_decided_again():
    CONF([], project='tether')
    member = _ctx('p1', ['member', 'reader'])
    assert member.can(volume_policy.DELETE, {'project_id': 'p1'})
    assert not member.can(volume_policy.DELETE, {'project_id': 'p2'},
                          fatal=False)
    assert member.can(volume_policy.DELETE, {'project_id': 'p1'})


def test_roles_are_part_of_the_decision():
    CONF([], project='tether')
    target = {'project_id': 'p1'}
    assert not _ctx('p1', ['reader']).can(volume_policy.DELETE, target,
                                          fatal=False)
    assert _ctx('p1', ['member', 'reader']).can(volume_policy.DELETE,
                                                target)
    assert not _ctx('p1', ['member']).can(actions_policy.RESET_STATUS,
                                          target, fatal=False)
    assert _ctx('p1', ['admin']).can(actions_policy.RESET_STATUS, target)


def test_every_credential_is_in_the_key():
    creds_a = _ctx('p1', ['member'], user_domain_id='d1').to_policy_values()
    creds_b = _ctx('p1', ['member'], user_domain_id='d2').to_policy_values()
    assert enforcer._key('x', {}, creds_a) != enforcer._key('x', {}, creds_b)


def test_unhashable_target_is_decided_without_cache():
    assert enforcer._key('x', {'a': object.__new__(_Unhashable)}, {}) is None


class _Unhashable:
    __hash__ = None
