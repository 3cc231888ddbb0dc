"""The server group policies applied to candidate hosts
(tether.compute.scheduler.GroupRule), and the hours a usage report
counts (tether.compute.api.simple_tenant_usage.hours_for): pure logic."""

import datetime

from tether.compute.api import simple_tenant_usage
from tether.compute import scheduler
from tether.objects.compute import server_group


def _group(policy, rules=None):
    return server_group.ServerGroup(
        id=1, uuid='6f1f6a2e-0000-4000-8000-000000000001', name='g',
        project_id='p', user_id='u', policy=policy, rules=rules or {},
        created_at=None, updated_at=None)


def _hosts(*names):
    return [scheduler.Candidate(i, name, name, 1024, 4, 'nova')
            for i, name in enumerate(names)]


def _order(policy, members, rules=None, names=('a', 'b', 'c')):
    rule = scheduler.GroupRule(_group(policy, rules), 10)
    kept = rule.order(_hosts(*names), members)
    return [c.host for c in kept], rule


def test_affinity_keeps_the_members_host():
    assert _order('affinity', {})[0] == ['a', 'b', 'c']
    hosts, rule = _order('affinity', {'b': 2})
    assert hosts == ['b'] and rule.excluded == ['a', 'c']
    hosts, rule = _order('affinity', {'z': 1})
    assert hosts == [] and 'affinity policy' in rule.why_none()


def test_anti_affinity_leaves_out_full_hosts():
    hosts, rule = _order('anti-affinity', {'a': 1, 'c': 1})
    assert hosts == ['b'] and rule.excluded == ['a', 'c']
    hosts, rule = _order('anti-affinity', {'a': 1, 'c': 2},
                         {'max_server_per_host': 2})
    assert hosts == ['a', 'b']
    hosts, rule = _order('anti-affinity', {'a': 1}, names=('a',))
    assert hosts == []
    assert rule.why_none() == (
        'the anti-affinity policy of server group %s allows 1 of its '
        'servers per host, and every host that could take it has as many '
        '(a)' % rule.group.uuid)


def test_soft_policies_only_order():
    members = {'a': 1, 'c': 3}
    hosts, rule = _order('soft-affinity', members)
    assert hosts == ['c', 'a', 'b'] and rule.why_none() is None
    hosts, rule = _order('soft-anti-affinity', members)
    assert hosts == ['b', 'a', 'c'] and rule.why_none() is None


def _t(hour):
    return datetime.datetime(2026, 11, 1) + datetime.timedelta(hours=hour)


def test_hours_within_the_period():
    hours = simple_tenant_usage.hours_for
    # Launched before, still running: the whole period.
    assert hours(_t(-5), None, _t(0), _t(10)) == 10
    # Launched and ended inside it.
    assert hours(_t(2), _t(4.5), _t(0), _t(10)) == 2.5
    # Ended before it, launched after it, never launched.
    assert hours(_t(-5), _t(-1), _t(0), _t(10)) == 0
    assert hours(_t(11), None, _t(0), _t(10)) == 0
    assert hours(None, None, _t(0), _t(10)) == 0
    # Ended after it.
    assert hours(_t(3), _t(20), _t(0), _t(10)) == 7
