"""The compute API's samples of server groups, aggregates, usage reports
and extensions (doc/api_samples/compute/), replayed. The aggregate's host
is one the story adds, as a tether-compute registers; the usage is of
servers (rows) that ran on a day long past, so that its hours are the
same on every run."""

import datetime
import uuid

import sqlalchemy as sa

from tests.functional.api_samples import samples
from tests.functional.compute import conftest as compute_conftest
from tether.db.compute import models
from tether.db import session

VERSION = '2.96'


def test_the_server_groups_story(aio):
    http = aio.compute_http(version=VERSION)
    story = samples.Samples('compute', http)
    made = story.exchange('server-group-create', 'POST', '/os-server-groups',
                          {'server_group': {
                              'name': 'web', 'policy': 'anti-affinity',
                              'rules': {'max_server_per_host': 2}}},
                          version=VERSION)['server_group']
    story.subs['server_group_id'] = made['id']
    story.exchange('server-groups-list', 'GET', '/os-server-groups',
                   version=VERSION)
    story.exchange('server-group-show', 'GET',
                   '/os-server-groups/%s' % made['id'], version=VERSION)
    story.exchange('server-group-delete', 'DELETE',
                   '/os-server-groups/%s' % made['id'], version=VERSION)


def test_the_aggregates_story(aio, compute_hosts):
    row = compute_hosts.add(host=compute_conftest.unique('compute'))
    admin = aio.compute_http('operator', 'ops-' + uuid.uuid4().hex[:8],
                             roles=['admin'], version=VERSION)
    story = samples.Samples('compute', admin, aggregate_host=row.host)
    made = story.exchange('aggregate-create', 'POST', '/os-aggregates', {
        'aggregate': {'name': 'agg-ssd', 'availability_zone': 'zone-ssd'}},
        version=VERSION)['aggregate']
    story.subs['aggregate_id'] = made['id']
    path = '/os-aggregates/%s' % made['id']
    try:
        story.exchange('aggregate-add-host', 'POST', path + '/action',
                       {'add_host': {'host': row.host}}, version=VERSION)
        story.exchange('aggregate-set-metadata', 'POST', path + '/action',
                       {'set_metadata': {'metadata': {'ssd': 'true'}}},
                       version=VERSION)
        story.exchange('aggregate-update', 'PUT', path, {
            'aggregate': {'name': 'agg-fast-ssd'}}, version=VERSION)
        story.exchange('aggregate-show', 'GET', path, version=VERSION)
        listed = admin.get('/os-aggregates').json()['aggregates']
        if [a['id'] for a in listed] == [made['id']]:
            # The list is the story's only when no other test left one.
            story.exchange('aggregates-list', 'GET', '/os-aggregates',
                           version=VERSION)
        story.exchange('aggregate-remove-host', 'POST', path + '/action',
                       {'remove_host': {'host': row.host}}, version=VERSION)
    finally:
        story.exchange('aggregate-delete', 'DELETE', path, version=VERSION)


# A day long past: the servers' hours within it never change.
DAY = datetime.datetime(2001, 2, 3)


def _ran(instance_uuid, start_hour, end_hour):
    ctx = compute_conftest.admin_context()
    with session.COMPUTE.writing(ctx):
        ctx.session.execute(sa.update(models.Instance).where(
            models.Instance.uuid == instance_uuid).values(
                launched_at=DAY + datetime.timedelta(hours=start_hour),
                terminated_at=DAY + datetime.timedelta(hours=end_hour),
                deleted_at=DAY + datetime.timedelta(hours=end_hour),
                deleted=True, vm_state='deleted'))


def test_the_usage_story(aio, instances):
    project = 'usage-' + uuid.uuid4().hex[:8]
    # Two alike: their order (by UUID) shows in no value.
    for _ in range(2):
        instance, _ = instances.add(project, name='web')
        _ran(instance.uuid, 1, 7)
    query = '?start=2001-02-03T00:00:00&end=2001-02-04T00:00:00'
    admin = aio.compute_http('operator', 'ops-' + uuid.uuid4().hex[:8],
                             roles=['admin'], version=VERSION)
    samples.Samples('compute', admin, usage_project=project).exchange(
        'usage-list', 'GET', '/os-simple-tenant-usage' + query +
        '&detailed=1', version=VERSION)
    reader = aio.compute_http('viewer', project, roles=['reader'],
                              version=VERSION)
    samples.Samples('compute', reader).exchange(
        'usage-show', 'GET', '/os-simple-tenant-usage/%s%s' % (
            project, query), version=VERSION)


def test_the_extensions_story(aio):
    story = samples.Samples('compute', aio.compute_http(version=VERSION))
    story.exchange('extensions-list', 'GET', '/extensions',
                   version=VERSION)
    story.exchange('extension-show', 'GET', '/extensions/os-server-groups',
                   version=VERSION)
