"""The pure parts of the quota engines: what a server and a volume count,
Nova's words over quota, and the keys of each microversion's limits."""

import pytest
import webob

from tether.api.compute.views import limits as limits_views
from tether.api import microversion
from tether.compute.api import quota_sets
from tether.compute import quota
from tether.compute import quota_exception
from tether.volume import quota as volume_quota


def test_a_server_counts_its_flavor():
    assert quota.instance_deltas(2, 512) == {'instances': 1, 'cores': 2,
                                             'ram': 512}
    assert quota.instance_deltas(2, 512, count=3) == {
        'instances': 3, 'cores': 6, 'ram': 1536}


def test_over_quota_in_novas_words():
    deltas = quota.instance_deltas(1, 64)
    with pytest.raises(quota_exception.TooManyInstances) as exc:
        quota._raise_over(deltas, {'ram': 64, 'cores': 20},
                          {'ram': 100, 'cores': 20, 'instances': 10})
    assert str(exc.value) == (
        'Quota exceeded for cores, ram: Requested 1, 64, but already used '
        '20, 64 of 20, 100 cores, ram')


def test_unlimited_arithmetic_of_the_settable_range():
    assert quota_sets._sub(10, 4) == 6
    assert quota_sets._sub(-1, 4) == quota_sets._sub(10, -6) == -1
    assert quota_sets._add(3, 2) == 5
    assert quota_sets._add(-1, 2) == quota_sets._add(3, -2) == -1
    assert quota_sets._inf(-1) == float('inf') and quota_sets._inf(0) == 0


def test_a_volume_counts_for_its_type():
    assert volume_quota.with_type({'volumes': 1, 'gigabytes': 2}, 'gold') \
        == {'volumes': 1, 'gigabytes': 2, 'volumes_gold': 1,
            'gigabytes_gold': 2}
    assert volume_quota.with_type({'snapshots': 1, 'gigabytes': 2}, None) \
        == {'snapshots': 1, 'gigabytes': 2}
    assert volume_quota.type_resources('a_b') == [
        'volumes_a_b', 'gigabytes_a_b', 'snapshots_a_b']


def _req(version):
    req = webob.Request.blank('/limits')
    req.environ[microversion.VERSION_KEY] = microversion.parse(version)
    return req


@pytest.mark.parametrize('version, gone, kept', [
    ('2.1', [], ['maxImageMeta', 'maxTotalFloatingIps', 'maxPersonality']),
    ('2.36', ['maxTotalFloatingIps', 'totalSecurityGroupsUsed'],
     ['maxImageMeta', 'maxPersonality']),
    ('2.39', ['maxImageMeta'], ['maxPersonality', 'maxServerMeta']),
    ('2.57', ['maxPersonality', 'maxPersonalitySize'],
     ['maxServerMeta', 'totalRAMUsed']),
])
def test_the_limits_of_each_microversion(version, gone, kept):
    usages = {r: {'limit': 7, 'in_use': 1} for r in quota.RESOURCES}
    absolute = limits_views.limits(_req(version), usages)['limits'][
        'absolute']
    assert not set(gone) & set(absolute)
    assert set(kept) <= set(absolute)
    assert absolute['maxServerMeta'] == 7 and absolute['totalCoresUsed'] == 1
