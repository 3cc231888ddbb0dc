"""Project quotas over HTTP (os-quota-sets): show, usage, update, revert."""

import uuid

import openstack
import pytest
import requests

from tests.functional import helpers

DEFAULTS = {'volumes': 10, 'gigabytes': 1000, 'per_volume_gigabytes': -1,
            'snapshots': 10, 'backups': 10, 'backup_gigabytes': 1000,
            'groups': 10}


def _project():
    return 'project-' + uuid.uuid4().hex[:8]


def _limits(quota_set):
    return {k: quota_set[k] for k in DEFAULTS}


def _per_type(key):
    """A resource of one volume type (every type the session's tests
    made has them: see test_volume_type_quotas.py)."""
    return key.startswith(('volumes_', 'gigabytes_', 'snapshots_'))


def _projects_own(values):
    return {k: v for k, v in values.items() if not _per_type(k)}


def test_show_defaults_and_usage_of_a_fresh_project(aio):
    user = aio.sdk()
    qs = user.block_storage.get_quota_set(user.test_project)
    assert _limits(qs) == DEFAULTS

    qs = user.block_storage.get_quota_set(user.test_project, usage=True)
    assert _limits(qs) == DEFAULTS
    assert _projects_own(qs.usage) == dict.fromkeys(DEFAULTS, 0)
    assert qs.reservation == qs.usage

    defaults = user.block_storage.get_quota_set_defaults(user.test_project)
    assert _limits(defaults) == DEFAULTS


def test_wire_format_with_usage(aio):
    http = aio.http()
    resp = http.get('/os-quota-sets/%s?usage=true' % http.project)
    assert resp.status_code == 200, resp.text
    body = resp.json()['quota_set']
    # Cinder's resources, as Tempest's schema of this answer requires
    # them (snapshots, backups and groups count what the project has).
    assert set(_projects_own(body)) == {'id'} | set(DEFAULTS)
    assert body['id'] == http.project
    # ... and those of each volume type, unlimited unless set.
    assert body['volumes___DEFAULT__'] == {'limit': -1, 'in_use': 0,
                                           'reserved': 0}
    # As Cinder's: no "allocated" (of its nested quotas, removed).
    assert body['volumes'] == {'limit': 10, 'in_use': 0, 'reserved': 0}


def test_usage_follows_volumes_exactly(aio, wait):
    user = aio.sdk()
    bs = user.block_storage
    volumes = [bs.create_volume(size=size) for size in (1, 2)]
    for v in volumes:
        bs.wait_for_status(v, 'available', interval=0.05, wait=30)

    qs = bs.get_quota_set(user.test_project, usage=True)
    assert qs.usage['volumes'] == 2
    assert qs.usage['gigabytes'] == 3
    assert qs.reservation['volumes'] == 0
    assert qs.reservation['gigabytes'] == 0

    for v in volumes:
        bs.delete_volume(v)
    for v in volumes:
        bs.wait_for_delete(v, interval=0.05, wait=30)
    qs = bs.get_quota_set(user.test_project, usage=True)
    assert qs.usage['volumes'] == 0
    assert qs.usage['gigabytes'] == 0


def test_update_then_revert(aio):
    admin = aio.admin()
    project = _project()
    qs = admin.block_storage.update_quota_set(project, volumes=5,
                                              gigabytes=-1)
    assert qs.volumes == 5
    assert qs.gigabytes == -1
    shown = admin.block_storage.get_quota_set(project)
    assert _limits(shown) == dict(DEFAULTS, volumes=5, gigabytes=-1)
    # The owner sees the same limits.
    owner = aio.sdk(project=project)
    assert owner.block_storage.get_quota_set(project).volumes == 5

    admin.block_storage.revert_quota_set(project)
    assert _limits(admin.block_storage.get_quota_set(project)) == DEFAULTS


def test_delete_answers_200_and_is_idempotent(aio):
    admin = aio.http('admin', 'admin')
    project = _project()
    resp = admin.put('/os-quota-sets/%s' % project,
                     json={'quota_set': {'volumes': 1}})
    assert resp.status_code == 200, resp.text
    for _ in range(2):
        resp = admin.delete('/os-quota-sets/%s' % project)
        assert resp.status_code == 200, resp.text
    resp = admin.get('/os-quota-sets/%s' % project)
    assert resp.json()['quota_set']['volumes'] == 10


def test_update_answers_every_limit_without_the_project(aio):
    """As Cinder: a show and the defaults name the project ("id"), an
    update answers the limits alone."""
    admin = aio.http('admin', 'admin')
    project = _project()
    resp = admin.put('/os-quota-sets/%s' % project,
                     json={'quota_set': {'volumes': 3}})
    assert resp.status_code == 200, resp.text
    assert _projects_own(resp.json()['quota_set']) == dict(DEFAULTS,
                                                           volumes=3)
    for path in ('', '/defaults'):
        resp = admin.get('/os-quota-sets/%s%s' % (project, path))
        assert resp.json()['quota_set']['id'] == project


def test_new_limit_applies_to_the_next_create(aio, wait):
    admin = aio.http('admin', 'admin')
    http = aio.http()
    helpers.create_volume(http, size=1, wait_for=wait)
    resp = admin.put('/os-quota-sets/%s' % http.project,
                     json={'quota_set': {'volumes': '1'}})
    assert resp.status_code == 200, resp.text
    assert resp.json()['quota_set']['volumes'] == 1
    resp = http.post('/volumes', json={'volume': {'size': 1}})
    assert resp.status_code == 413, resp.text


def test_lowering_a_limit_below_usage_is_refused(aio, wait):
    admin = aio.http('admin', 'admin')
    http = aio.http()
    helpers.create_volume(http, size=2, wait_for=wait)
    url = '/os-quota-sets/%s' % http.project

    resp = admin.put(url, json={'quota_set': {'gigabytes': 1}})
    assert resp.status_code == 400, resp.text
    assert 'gigabytes' in resp.json()['badRequest']['message']
    resp = admin.put(url, json={'quota_set': {'volumes': 0}})
    assert resp.status_code == 400, resp.text
    assert 'volumes' in resp.json()['badRequest']['message']
    # Nothing was written.
    assert _limits(admin.get(url).json()['quota_set']) == DEFAULTS

    # Equal to the usage is fine; so is unlimited.
    resp = admin.put(url, json={'quota_set': {'gigabytes': 2,
                                              'volumes': -1}})
    assert resp.status_code == 200, resp.text

    # An operator may force it.
    resp = admin.put(url, json={'quota_set': {'gigabytes': 1},
                                'skip_validation': True})
    assert resp.status_code == 200, resp.text
    assert resp.json()['quota_set']['gigabytes'] == 1
    resp = admin.put(url, json={'quota_set': {'gigabytes': 0},
                                'skip_validation': 'false'})
    assert resp.status_code == 400, resp.text


def test_sdk_update_below_usage_raises_bad_request(aio, wait):
    admin = aio.admin()
    http = aio.http()
    helpers.create_volume(http, size=1, wait_for=wait)
    with pytest.raises(openstack.exceptions.BadRequestException) as exc:
        admin.block_storage.update_quota_set(http.project, volumes=0)
    assert 'volumes' in str(exc.value)


@pytest.mark.parametrize('quota_set, field', [
    ({'instances': 5}, 'instances'),
    ({'volumes': 5, 'cores': 1, 'nonsense': 2}, 'cores, nonsense'),
    ({'volumes': 'abc'}, 'quota_set/volumes'),
    ({'volumes': -2}, 'quota_set/volumes'),
    ({'gigabytes': '-5'}, 'quota_set/gigabytes'),
    ({'volumes': 2 ** 31}, 'quota_set/volumes'),
    ({'volumes': '9999999999'}, 'quota_set/volumes'),
    ({'volumes': True}, 'quota_set/volumes'),
    ({'volumes': None}, 'quota_set/volumes'),
    ({}, 'quota_set'),
    ({'id': 'x'}, 'quota_set'),
])
def test_bad_update_gets_400_naming_the_field(aio, quota_set, field):
    admin = aio.http('admin', 'admin')
    resp = admin.put('/os-quota-sets/%s' % _project(),
                     json={'quota_set': quota_set})
    assert resp.status_code == 400, resp.text
    assert field in resp.json()['badRequest']['message']


@pytest.mark.parametrize('body, field', [
    ({}, 'quota_set'),
    ({'quota_set': [1]}, 'quota_set'),
    ({'quota_set': {'volumes': 1}, 'skip_validation': 'maybe'},
     'skip_validation'),
    ({'quota_set': {'volumes': 1}, 'other': 1}, 'other'),
])
def test_bad_body_gets_400_naming_the_field(aio, body, field):
    admin = aio.http('admin', 'admin')
    resp = admin.put('/os-quota-sets/%s' % _project(), json=body)
    assert resp.status_code == 400, resp.text
    assert field in resp.json()['badRequest']['message']


def test_bad_query_gets_400(aio):
    http = aio.http()
    url = '/os-quota-sets/%s' % http.project
    resp = http.get(url + '?usage=maybe')
    assert resp.status_code == 400, resp.text
    assert 'usage' in resp.json()['badRequest']['message']
    resp = http.get(url + '?foo=1')
    assert resp.status_code == 400, resp.text
    assert 'foo' in resp.json()['badRequest']['message']
    resp = http.get(url + '/defaults?usage=true')
    assert resp.status_code == 400, resp.text


def test_project_id_longer_than_255_is_400(aio):
    admin = aio.http('admin', 'admin')
    resp = admin.get('/os-quota-sets/%s' % ('p' * 256))
    assert resp.status_code == 400, resp.text


def test_policy(aio):
    member = aio.http()
    other = _project()
    # A member reads the quota of their own project only.
    assert member.get('/os-quota-sets/%s' % member.project).status_code == \
        200
    for path in ('/os-quota-sets/%s' % other,
                 '/os-quota-sets/%s?usage=true' % other,
                 '/os-quota-sets/%s/defaults' % other):
        resp = member.get(path)
        assert resp.status_code == 403, resp.text
    # Only admins write, even to their own project.
    resp = member.put('/os-quota-sets/%s' % member.project,
                      json={'quota_set': {'volumes': 100}})
    assert resp.status_code == 403, resp.text
    resp = member.delete('/os-quota-sets/%s' % member.project)
    assert resp.status_code == 403, resp.text
    # A reader reads; a user without a role in the project does not.
    reader = aio.http(roles=['reader'])
    assert reader.get('/os-quota-sets/%s' % reader.project).status_code == \
        200
    nobody = aio.http(roles=['nothing'])
    assert nobody.get('/os-quota-sets/%s' % nobody.project).status_code == \
        403


def test_sdk_member_of_another_project_is_forbidden(aio):
    user = aio.sdk()
    with pytest.raises(openstack.exceptions.ForbiddenException):
        user.block_storage.get_quota_set(_project())


def test_url_without_project_for_a_project_named_like_a_collection(aio):
    """/v3/os-quota-sets/volumes is the quota of project "volumes"."""
    headers = {'X-Auth-Token': 'admin:admin'}
    for project in ('volumes', 'limits', 'types'):
        resp = requests.get('%s/os-quota-sets/%s' % (aio.volume_url, project),
                            headers=headers)
        assert resp.status_code == 200, resp.text
        assert resp.json()['quota_set']['id'] == project
