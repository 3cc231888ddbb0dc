"""The compute API's absolute limits (/limits), per microversion: each
limit of the project's quota with what it uses; another project's for
administrators; the openstack CLI's ``limits show --absolute``."""

import uuid

from oslo_config import cfg
import pytest

from tests.functional import cli
from tests.functional.compute import server_helpers as sh

CONF = cfg.CONF
USED = ['totalCoresUsed', 'totalInstancesUsed', 'totalRAMUsed',
        'totalServerGroupsUsed']
V2_57 = sorted(USED + ['maxServerGroupMembers', 'maxServerGroups',
                       'maxServerMeta', 'maxTotalCores', 'maxTotalInstances',
                       'maxTotalKeypairs', 'maxTotalRAMSize'])
V2_39 = sorted(V2_57 + ['maxPersonality', 'maxPersonalitySize'])
V2_36 = sorted(V2_39 + ['maxImageMeta'])
V2_1 = sorted(V2_36 + ['maxSecurityGroups', 'maxSecurityGroupRules',
                       'maxTotalFloatingIps', 'totalFloatingIpsUsed',
                       'totalSecurityGroupsUsed'])


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def _limits(http, query=''):
    resp = http.get('/limits' + query)
    assert resp.status_code == 200, resp.text
    body = resp.json()
    assert body['limits']['rate'] == []
    return body['limits']['absolute']


@pytest.mark.parametrize('version, keys', [
    ('2.1', V2_1), ('2.35', V2_1), ('2.36', V2_36), ('2.38', V2_36),
    ('2.39', V2_39), ('2.56', V2_39), ('2.57', V2_57), ('2.97', V2_57)])
def test_the_keys_of_each_microversion(aio, version, keys):
    absolute = _limits(aio.compute_http(version=version))
    assert sorted(absolute) == keys
    assert absolute['maxTotalInstances'] == CONF.quota.instances
    assert absolute['maxServerMeta'] == CONF.quota.metadata_items
    if 'maxImageMeta' in keys:
        assert absolute['maxImageMeta'] == CONF.quota.metadata_items
    if 'maxTotalFloatingIps' in keys:
        assert absolute['maxTotalFloatingIps'] == -1


def test_the_limits_and_use_of_a_project(cloud):
    project = cloud.project()
    admin = cloud.admin().compute('2.97')
    resp = admin.put('/os-quota-sets/%s' % project.project,
                     json={'quota_set': {'instances': 5, 'ram': 1000}})
    assert resp.status_code == 200, resp.text
    project.boot()
    absolute = _limits(project.compute('2.97'))
    assert {k: absolute[k] for k in ('maxTotalInstances', 'maxTotalRAMSize',
                                     'totalInstancesUsed', 'totalRAMUsed',
                                     'totalCoresUsed')} == {
        'maxTotalInstances': 5, 'maxTotalRAMSize': 1000,
        'totalInstancesUsed': 1, 'totalRAMUsed': 64, 'totalCoresUsed': 1}
    # An administrator reads another project's with tenant_id.
    assert _limits(admin, '?tenant_id=%s' % project.project) == absolute
    # Anyone else who names a project is refused, even their own.
    for query in ('?tenant_id=%s' % project.project, '?tenant_id=other'):
        resp = project.compute('2.97').get('/limits' + query)
        assert resp.status_code == 403, resp.text


def test_the_query(aio):
    http = aio.compute_http(version='2.75')
    resp = http.get('/limits?reserved=1')
    assert resp.status_code == 400 and 'reserved' in sh.message(resp)
    # Before 2.75 what Nova does not know (os-used-limits' reserved) is
    # ignored.
    _limits(aio.compute_http(version='2.74'), '?reserved=1')
    admin = aio.compute_http('admin', 'admin', version='2.97')
    assert admin.get('/limits?tenant_id=%s' % ('p' * 256)).status_code == 400


def test_the_openstack_cli(aio, tmp_path):
    project = 'project-' + uuid.uuid4().hex[:8]
    openstack = cli.CLI(aio, tmp_path, 'user-' + uuid.uuid4().hex[:8],
                        project)
    rows = {r['Name']: r['Value']
            for r in openstack.json('limits', 'show', '--absolute')}
    # The compute limits beside the volume ones.
    assert rows['total_cores'] == CONF.quota.cores
    assert rows['instances'] == CONF.quota.instances
    assert rows['total_ram_used'] == 0
    assert rows['max_total_volumes'] == CONF.quota_volumes
