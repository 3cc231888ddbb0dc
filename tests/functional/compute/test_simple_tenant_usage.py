"""Usage reports over HTTP (/os-simple-tenant-usage): the hours servers
ran in a period, deleted ones included, per project and for every
project (administrators), detailed or not, paged from 2.40; refusals;
openstacksdk and the openstack CLI. The servers are rows whose launch
and deletion times the test sets (servers fixture), and one real server
booted and deleted."""

import datetime
import uuid

import openstack
from oslo_utils import timeutils
import pytest
import sqlalchemy as sa

from tests.functional import cli
from tests.functional.compute import conftest as compute_conftest
from tests.functional.compute import server_helpers as sh
from tether.db.compute import models
from tether.db import session

FMT = '%Y-%m-%dT%H:%M:%S'


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def _set_times(instance_uuid, launched, terminated=None):
    """The server launched at ``launched`` and (if given) deleted at
    ``terminated``, as a deletion leaves its row."""
    values = {'launched_at': launched}
    if terminated is not None:
        values.update(terminated_at=terminated, deleted_at=terminated,
                      deleted=True, vm_state='deleted')
    ctx = compute_conftest.admin_context()
    with session.COMPUTE.writing(ctx):
        ctx.session.execute(sa.update(models.Instance).where(
            models.Instance.uuid == instance_uuid).values(**values))


def _ago(hours):
    return timeutils.utcnow().replace(microsecond=0) - \
        datetime.timedelta(hours=hours)


@pytest.fixture
def history(servers):
    """A project with a server running for 10 hours, one that ran from 5
    to 2 hours ago, one deleted 20 hours ago and one never launched:
    (project, {name: uuid}, {name: when it ended})."""
    project = compute_conftest.unique('project')
    made, ends = {}, {}
    for name, launched, ended in (('running', 10, None), ('gone', 5, 2),
                                  ('old', 30, 20), ('never', None, None)):
        instance, _ = servers.add(project, name=name)
        made[name] = instance.uuid
        if launched is not None:
            ends[name] = _ago(ended) if ended is not None else None
            _set_times(instance.uuid, _ago(launched), ends[name])
    return project, made, ends


def _get(http, path, status=200):
    resp = http.get(path)
    assert resp.status_code == status, resp.text
    return resp.json()


def test_a_project_over_a_period(aio, history):
    project, made, ends = history
    http = aio.compute_http('u', project, roles=['reader'])
    start, end = _ago(8).strftime(FMT), _ago(1).strftime(FMT)
    usage = _get(http, '/os-simple-tenant-usage/%s?start=%s&end=%s'
                 % (project, start, end))['tenant_usage']
    by_name = {s['name']: s for s in usage['server_usages']}
    assert set(by_name) == {'running', 'gone'}
    assert by_name['running']['hours'] == pytest.approx(7)
    assert by_name['gone']['hours'] == pytest.approx(3)
    assert usage['total_hours'] == pytest.approx(10)
    assert usage['total_vcpus_usage'] == pytest.approx(10)
    assert usage['total_memory_mb_usage'] == pytest.approx(640)
    assert usage['total_local_gb_usage'] == 0
    assert (usage['tenant_id'], usage['start'], usage['stop']) == (
        project, start, end)
    gone = by_name['gone']
    assert (gone['state'], gone['instance_id'], gone['flavor']) == (
        'terminated', made['gone'], 'm1.nano')
    assert gone['ended_at'] == ends['gone'].isoformat()
    assert gone['uptime'] == 3 * 3600
    assert by_name['running']['state'] == 'active'
    assert by_name['running']['ended_at'] is None
    # Without start and end: from now to now (a moment apart, as in Nova).
    moment = _get(http, '/os-simple-tenant-usage/%s' % project)
    assert moment['tenant_usage']['total_hours'] < 0.001
    # End beyond now is now.
    later = _get(http, '/os-simple-tenant-usage/%s?start=%s&end=%s' % (
        project, _ago(8).strftime(FMT),
        (timeutils.utcnow() + datetime.timedelta(days=2)).strftime(
            FMT)))['tenant_usage']
    assert later['total_hours'] == pytest.approx(11, abs=0.1)


def test_every_project_for_administrators(aio, history):
    project, _made, _ends = history
    admin = aio.compute_http('admin', 'admin')
    query = '?start=%s&end=%s' % (_ago(8).strftime(FMT),
                                  _ago(1).strftime('%Y-%m-%dT%H:%M:%S.%f'))
    usages = {u['tenant_id']: u for u in _get(
        admin, '/os-simple-tenant-usage' + query)['tenant_usages']}
    assert 'server_usages' not in usages[project]
    assert usages[project]['total_hours'] == pytest.approx(10)
    for flag in ('1', 'True'):
        detailed = {u['tenant_id']: u for u in _get(
            admin, '/os-simple-tenant-usage%s&detailed=%s' % (query, flag))[
                'tenant_usages']}
        assert len(detailed[project]['server_usages']) == 2
    # A member may not list every project, nor see another project's.
    member = aio.compute_http('u', project)
    _get(member, '/os-simple-tenant-usage' + query, 403)
    other = aio.compute_http('u', 'other-' + project)
    _get(other, '/os-simple-tenant-usage/%s%s' % (project, query), 403)


def test_paging_from_2_40(aio, history):
    project, made, _ends = history
    http = aio.compute_http('admin', 'admin', version='2.40')
    query = '?start=%s&end=%s' % (_ago(8).strftime(FMT),
                                  _ago(1).strftime(FMT))
    path = '/os-simple-tenant-usage/%s%s' % (project, query)
    first = _get(http, path + '&limit=1')
    (usage,) = first['tenant_usage']['server_usages']
    (link,) = first['tenant_usage_links']
    assert 'marker=%s' % usage['instance_id'] in link['href']
    second = _get(http, path + '&limit=1&marker=' + usage['instance_id'])
    ids = [usage['instance_id']] + [
        s['instance_id'] for s in second['tenant_usage']['server_usages']]
    assert sorted(ids) == sorted([made['running'], made['gone']])
    last = _get(http, path + '&limit=1&marker=' + ids[1])
    assert last == {'tenant_usage': {}}
    resp = http.get(path + '&marker=%s' % uuid.uuid4())
    assert resp.status_code == 400 and 'marker' in resp.text
    # Before 2.40 limit and marker are ignored.
    old = aio.compute_http('admin', 'admin', version='2.39')
    body = _get(old, path + '&limit=1')
    assert len(body['tenant_usage']['server_usages']) == 2
    assert 'tenant_usage_links' not in body


@pytest.mark.parametrize('query, version, words', [
    ('?start=2026-11-02T00:00:00&end=2026-11-01T00:00:00', '2.1',
     'start time'),
    ('?start=yesterday', '2.1', 'Datetime is in invalid format'),
    ('?start=2026-11-01', '2.1', 'Datetime is in invalid format'),
    ('?end=2026-11-01T00:00:00Z', '2.1', 'Datetime is in invalid format'),
    ('?limit=-1', '2.40', 'limit'),
    ('?bogus=1', '2.75', 'bogus'),
])
def test_bad_queries_are_400(aio, query, version, words):
    admin = aio.compute_http('admin', 'admin', version=version)
    for path in ('/os-simple-tenant-usage', '/os-simple-tenant-usage/p'):
        resp = admin.get(path + query)
        assert resp.status_code == 400, resp.text
        assert words in resp.text


def test_a_real_server_booted_and_deleted(cloud, tmp_path):
    user = cloud.project()
    start = timeutils.utcnow() - datetime.timedelta(minutes=1)
    server = user.boot()
    user.conn.compute.delete_server(server.id)
    user.wait_gone(server.id)
    usage = user.conn.compute.get_usage(
        user.project, start=start,
        end=timeutils.utcnow() + datetime.timedelta(minutes=1))
    (counted,) = usage.server_usages
    assert counted['instance_id'] == server.id
    assert counted['state'] == 'terminated' and counted['ended_at']
    assert 0 < usage.total_hours < 0.1
    admin = cloud.admin().conn
    assert user.project in [u.project_id for u in admin.compute.usages(
        start=start, end=timeutils.utcnow(), detailed=True)]
    with pytest.raises(openstack.exceptions.ForbiddenException):
        list(user.conn.compute.usages(start=start))
    # ("usage show" looks the project up in the identity service first,
    # which tether-aio does not run without Keystone.)
    osc = cli.CLI(user.aio, tmp_path, 'admin', 'admin')
    listed = osc.json('usage', 'list')
    (mine,) = [u for u in listed if u['Project'] == user.project]
    (counted,) = mine['Servers']
    assert counted['instance_id'] == server.id
