"""The actions of a server (os-instance-actions) over HTTP.

The servers and their actions here are database rows written with the
calls the compute API and tether-compute make (a test setup); the
actions of real servers are in the server tests.
"""

import uuid

import openstack
import pytest

from tether.compute import instance_state
from tether import context as t_context
from tether.db.compute import instance_action as db_actions

ADMIN = ('admin', 'admin')
ACTION = {'action', 'instance_uuid', 'request_id', 'user_id', 'project_id',
          'start_time', 'message'}
EVENT = {'event', 'start_time', 'finish_time', 'result'}


@pytest.fixture
def project():
    return 'project-' + uuid.uuid4().hex[:8]


def _events(instance, request_id, host='compute-1'):
    """A failed event with its traceback and a running one."""
    ctx = t_context.get_admin_context()
    failed = db_actions.event_start(ctx, instance.uuid, request_id,
                                    'compute_build_and_run_instance', host)
    db_actions.event_finish(ctx, failed, 'Error',
                            traceback='Traceback (most recent call last)',
                            details='The guest did not start.')
    db_actions.event_start(ctx, instance.uuid, request_id,
                           'compute_attach_volume', host)


def _get(http, path):
    resp = http.get(path)
    assert resp.status_code == 200, resp.text
    return resp.json()


def test_owner_lists_and_shows_with_openstacksdk(aio, servers, project):
    instance, request_id = servers.add(project, user_id='alice')
    _events(instance, request_id)
    owner = aio.sdk('alice', project)
    (action,) = list(owner.compute.server_actions(instance.uuid))
    assert (action.action, action.request_id, action.user_id,
            action.project_id, action.server_id) == (
        'create', request_id, 'alice', project, instance.uuid)
    # A failed event marks its action.
    assert action.message == 'Error'
    assert action.start_time
    shown = owner.compute.get_server_action(request_id, instance.uuid)
    assert shown.request_id == request_id
    running, failed = shown.events
    assert (failed.event, failed.result) == (
        'compute_build_and_run_instance', 'Error')
    assert failed.finish_time
    # details, traceback and host are for administrators (Nova's
    # defaults).
    assert failed.details is None
    assert failed.traceback is None
    assert failed.host is None
    assert failed.host_id
    assert (running.event, running.result, running.finish_time) == (
        'compute_attach_volume', None, None)


def test_action_shapes_per_microversion(aio, servers, project):
    instance, request_id = servers.add(project, user_id='alice')
    path = '/servers/%s/os-instance-actions' % instance.uuid
    for version, keys in (('2.1', ACTION), ('2.57', ACTION),
                          ('2.58', ACTION | {'updated_at'}),
                          ('2.90', ACTION | {'updated_at'})):
        http = aio.compute_http('alice', project, version=version)
        (action,) = _get(http, path)['instanceActions']
        assert set(action) == keys, version
        assert action['instance_uuid'] == instance.uuid
        shown = _get(http, path + '/' + request_id)['instanceAction']
        assert {k: v for k, v in shown.items() if k != 'events'} == action


@pytest.mark.parametrize('version,admin_keys,owner_keys', [
    # Before 2.51 only admins see events.
    ('2.1', EVENT | {'traceback'}, None),
    ('2.50', EVENT | {'traceback'}, None),
    # From 2.51 everyone; the traceback for admins.
    ('2.51', EVENT | {'traceback'}, EVENT),
    # 2.62: hostId for everyone, host for admins.
    ('2.62', EVENT | {'traceback', 'host', 'hostId'}, EVENT | {'hostId'}),
    # 2.84: details.
    ('2.84', EVENT | {'traceback', 'host', 'hostId', 'details'},
     EVENT | {'hostId'}),
])
def test_events_per_microversion_and_role(aio, servers, project, version,
                                          admin_keys, owner_keys):
    instance, request_id = servers.add(project, user_id='alice')
    _events(instance, request_id, host='compute-1')
    path = '/servers/%s/os-instance-actions/%s' % (instance.uuid,
                                                   request_id)
    admin = _get(aio.compute_http(*ADMIN, version=version),
                 path)['instanceAction']
    owner = _get(aio.compute_http('alice', project, version=version),
                 path)['instanceAction']
    assert len(admin['events']) == 2
    for event in admin['events']:
        assert set(event) == admin_keys
    failed = admin['events'][1]
    assert failed['traceback'] == 'Traceback (most recent call last)'
    if 'host' in admin_keys:
        assert failed['host'] == 'compute-1'
    if owner_keys is None:
        assert 'events' not in owner
    else:
        for event in owner['events']:
            assert set(event) == owner_keys
    if 'hostId' in admin_keys:
        # The same obfuscated host for both: it hashes the project's id.
        assert owner['events'][1]['hostId'] == failed['hostId'] != ''


def test_events_details_follow_their_policy(aio, servers, project):
    instance, request_id = servers.add(project, user_id='alice')
    _events(instance, request_id)
    path = '/servers/%s/os-instance-actions/%s' % (instance.uuid,
                                                   request_id)
    admin = aio.compute_http(*ADMIN, version='2.84')
    events = _get(admin, path)['instanceAction']['events']
    assert events[1]['details'] == 'The guest did not start.'
    # A reader and a member of the project see no details (Nova's
    # default: administrators only).
    for roles in (['reader'], ['member']):
        reader = aio.compute_http('bob', project, roles=roles,
                                  version='2.84')
        events = _get(reader, path)['instanceAction']['events']
        assert 'details' not in events[1], events
    # Without the reader role: no action at all.
    other = aio.compute_http('carol', project, roles=['observer'],
                             version='2.84')
    for url in (path, path.rsplit('/', 1)[0]):
        resp = other.get(url)
        assert resp.status_code == 403, resp.text


def test_paging_and_time_filters_from_2_58(aio, servers, project):
    instance, first = servers.add(project)
    second = servers.action(instance, 'stop')
    third = servers.action(instance, 'start')
    http = aio.compute_http(*ADMIN, version='2.66')
    path = '/servers/%s/os-instance-actions' % instance.uuid

    def ids(query=''):
        body = _get(http, path + query)
        return [a['request_id'] for a in body['instanceActions']], body

    everything, body = ids()
    assert everything == [third, second, first]
    assert [a['action'] for a in body['instanceActions']] == [
        'start', 'stop', 'create']
    page, body = ids('?limit=2')
    assert page == [third, second]
    (link,) = body['links']
    assert link['rel'] == 'next'
    assert 'marker=%s' % second in link['href']
    page, body = ids('?limit=2&marker=%s' % second)
    assert page == [first]
    assert 'links' not in body
    resp = http.get(path + '?marker=req-unknown')
    assert resp.status_code == 400, resp.text
    assert 'req-unknown' in resp.json()['badRequest']['message']

    times = {a['request_id']: a['updated_at']
             for a in _get(http, path)['instanceActions']}
    assert ids('?changes-since=%s' % times[second])[0] == [third, second]
    assert ids('?changes-before=%s' % times[second])[0] == [second, first]
    assert ids('?changes-since=%s&changes-before=%s'
               % (times[second], times[second]))[0] == [second]
    resp = http.get(path + '?changes-since=%s&changes-before=%s'
                    % (times[third], times[first]))
    assert resp.status_code == 400, resp.text
    assert 'changes-since' in resp.json()['badRequest']['message']

    # The SDK pages through them.
    listed = aio.admin().compute.server_actions(instance.uuid, limit=1)
    assert [a.request_id for a in listed] == everything


@pytest.mark.parametrize('version,query,field', [
    ('2.58', 'changes-since=yesterday', 'changes-since'),
    ('2.66', 'changes-before=2020-13-45T00:00:00', 'changes-before'),
    ('2.66', 'changes-since=9999-12-31T23:59:59-23:00', 'changes-since'),
    ('2.58', 'changes-before=2020-01-01T00:00:00', 'changes-before'),
    ('2.58', 'limit=-1', 'limit'),
    ('2.58', 'limit=1&limit=2', 'limit'),
    ('2.58', 'foo=bar', 'foo'),
])
def test_bad_queries_name_the_parameter(aio, servers, project, version,
                                        query, field):
    instance, _ = servers.add(project)
    resp = aio.compute_http(*ADMIN, version=version).get(
        '/servers/%s/os-instance-actions?%s' % (instance.uuid, query))
    assert resp.status_code == 400, resp.text
    assert field in resp.json()['badRequest']['message']


def test_queries_before_2_58_are_ignored(aio, servers, project):
    instance, first = servers.add(project)
    servers.action(instance, 'stop')
    http = aio.compute_http(*ADMIN, version='2.57')
    body = _get(http, '/servers/%s/os-instance-actions?limit=1&marker=x'
                '&changes-since=yesterday' % instance.uuid)
    assert len(body['instanceActions']) == 2
    assert 'links' not in body


def test_servers_of_other_projects_are_not_found(aio, servers, project):
    instance, request_id = servers.add(project, user_id='alice')
    path = '/servers/%s/os-instance-actions' % instance.uuid
    stranger = aio.compute_http()
    with pytest.raises(openstack.exceptions.NotFoundException):
        list(aio.sdk().compute.server_actions(instance.uuid))
    for url in (path, path + '/' + request_id):
        resp = stranger.get(url)
        assert resp.status_code == 404, resp.text
        assert instance.uuid in resp.json()['itemNotFound']['message']
    # An admin of another project sees them.
    admin = aio.compute_http('root', 'elsewhere', roles=['admin'])
    assert _get(admin, path)['instanceActions'][0]['request_id'] == \
        request_id


def test_unknown_server_and_request(aio, servers, project):
    instance, _ = servers.add(project, user_id='alice')
    http = aio.compute_http('alice', project)
    missing = str(uuid.uuid4())
    resp = http.get('/servers/%s/os-instance-actions' % missing)
    assert resp.status_code == 404, resp.text
    resp = http.get('/servers/%s/os-instance-actions/req-nope'
                    % instance.uuid)
    assert resp.status_code == 404, resp.text
    assert 'req-nope' in resp.json()['itemNotFound']['message']


def test_actions_of_deleted_servers_from_2_21(aio, servers, project):
    instance, request_id = servers.add(project, user_id='alice')
    delete_id = servers.action(instance, 'delete')
    instance_state.soft_delete_counted(t_context.get_admin_context(),
                                       instance.uuid)
    path = '/servers/%s/os-instance-actions' % instance.uuid
    for who in (ADMIN, ('alice', project)):
        old = aio.compute_http(*who, version='2.20')
        assert old.get(path).status_code == 404
        assert old.get(path + '/' + request_id).status_code == 404
        new = aio.compute_http(*who, version='2.21')
        actions = _get(new, path)['instanceActions']
        assert [a['request_id'] for a in actions] == [delete_id,
                                                      request_id]
        shown = _get(new, path + '/' + delete_id)['instanceAction']
        assert shown['action'] == 'delete'
    resp = aio.compute_http(version='2.21').get(path)
    assert resp.status_code == 404, resp.text
