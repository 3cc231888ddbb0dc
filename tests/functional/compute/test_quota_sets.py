"""Compute quota sets over HTTP (/os-quota-sets): show, detail,
defaults, set, revert, per microversion and per user of a project;
refusals that change nothing; who may do what."""

import uuid

from oslo_config import cfg
import pytest

from tests.functional.compute import server_helpers as sh

CONF = cfg.CONF

V2_57 = ['cores', 'instances', 'key_pairs', 'metadata_items', 'ram',
         'server_group_members', 'server_groups']
V2_36 = sorted(V2_57 + ['injected_file_content_bytes',
                        'injected_file_path_bytes', 'injected_files'])
V2_1 = sorted(V2_36 + ['fixed_ips', 'floating_ips', 'security_group_rules',
                       'security_groups'])


def _project():
    return 'project-' + uuid.uuid4().hex[:8]


def _admin(aio, version='2.97'):
    return aio.compute_http('admin', 'admin', version=version)


def _member(aio, project, user=None, version='2.97', roles=None):
    return aio.compute_http(user or 'user-' + uuid.uuid4().hex[:8],
                            project, roles=roles, version=version)


def _ok(resp, status=200):
    assert resp.status_code == status, resp.text
    return resp.json() if resp.content else None


def test_story_show_set_detail_revert(aio):
    project = _project()
    admin = _admin(aio)
    defaults = _ok(admin.get('/os-quota-sets/%s/defaults' % project))
    assert defaults == {'quota_set': {
        'id': project, 'instances': CONF.quota.instances,
        'cores': CONF.quota.cores, 'ram': CONF.quota.ram,
        'key_pairs': CONF.quota.key_pairs,
        'metadata_items': CONF.quota.metadata_items,
        'server_groups': CONF.quota.server_groups,
        'server_group_members': CONF.quota.server_group_members}}
    # A reader of the project sees its quotas: the defaults so far.
    reader = _member(aio, project, roles=['reader'])
    assert _ok(reader.get('/os-quota-sets/%s' % project)) == defaults

    updated = _ok(admin.put('/os-quota-sets/%s' % project, json={
        'quota_set': {'instances': 3, 'cores': '6', 'ram': 1024}}))
    # As Nova: an update's answer has no id.
    assert 'id' not in updated['quota_set']
    assert (updated['quota_set']['instances'], updated['quota_set']['cores'],
            updated['quota_set']['ram']) == (3, 6, 1024)
    assert sorted(updated['quota_set']) == V2_57
    shown = _ok(reader.get('/os-quota-sets/%s' % project))['quota_set']
    assert dict(shown, id=None) == dict(updated['quota_set'], id=None)

    detail = _ok(reader.get('/os-quota-sets/%s/detail' % project))
    assert detail['quota_set']['id'] == project
    assert detail['quota_set']['instances'] == {
        'limit': 3, 'in_use': 0, 'reserved': 0}
    assert detail['quota_set']['key_pairs'] == {
        'limit': CONF.quota.key_pairs, 'in_use': 0, 'reserved': 0}

    resp = admin.delete('/os-quota-sets/%s' % project)
    assert resp.status_code == 202 and not resp.content
    assert _ok(reader.get('/os-quota-sets/%s' % project)) == defaults


@pytest.mark.parametrize('version, keys', [
    ('2.1', V2_1), ('2.35', V2_1), ('2.36', V2_36), ('2.56', V2_36),
    ('2.57', V2_57), ('2.97', V2_57)])
def test_the_keys_of_each_microversion(aio, version, keys):
    project = _project()
    admin = _admin(aio, version)
    for path in ('', '/defaults', '/detail'):
        body = _ok(admin.get('/os-quota-sets/%s%s' % (project, path)))
        assert sorted(body['quota_set']) == sorted(keys + ['id']), path
    updated = _ok(admin.put('/os-quota-sets/%s' % project,
                            json={'quota_set': {'cores': 7}}))
    assert sorted(updated['quota_set']) == keys
    if 'fixed_ips' in keys:
        # Nova's network quotas: unlimited unless set.
        assert updated['quota_set']['floating_ips'] == -1
    if 'injected_files' in keys:
        assert updated['quota_set']['injected_files'] == \
            CONF.quota.injected_files
        assert updated['quota_set']['injected_file_path_bytes'] == \
            CONF.quota.injected_file_path_length


def test_keys_gone_at_a_microversion_cannot_be_set(aio):
    project = _project()
    for version, key in (('2.36', 'floating_ips'), ('2.57', 'injected_files'),
                         ('2.97', 'security_groups'), ('2.97', 'networks')):
        resp = _admin(aio, version).put('/os-quota-sets/%s' % project,
                                        json={'quota_set': {key: 1}})
        assert resp.status_code == 400, (version, key)
        assert key in sh.message(resp)
    # Below, they are set and shown (and limit nothing tether serves).
    admin = _admin(aio, '2.35')
    _ok(admin.put('/os-quota-sets/%s' % project, json={
        'quota_set': {'floating_ips': 4, 'injected_files': 2}}))
    shown = _ok(admin.get('/os-quota-sets/%s' % project))['quota_set']
    assert (shown['floating_ips'], shown['injected_files']) == (4, 2)


@pytest.mark.parametrize('body', [
    {'quota_set': {'instances': -2}},
    {'quota_set': {'instances': 'ten'}},
    {'quota_set': {'instances': 2 ** 31}},
    {'quota_set': {'instances': '99999999999'}},
    {'quota_set': {'instances': None}},
    {'quota_set': {'instances': 1.5}},
    {'quota_set': {'instances': 1, 'force': 'maybe'}},
    {'quota_set': {'nosuch': 1}},
    {'quota_set': []},
    {'quota': {'instances': 1}},
    {'quota_set': {'instances': 1}, 'more': 1},
])
def test_bad_input_is_a_400_that_changes_nothing(aio, body):
    project = _project()
    admin = _admin(aio)
    before = _ok(admin.get('/os-quota-sets/%s' % project))
    resp = admin.put('/os-quota-sets/%s' % project, json=body)
    assert resp.status_code == 400, resp.text
    assert _ok(admin.get('/os-quota-sets/%s' % project)) == before


def test_bad_queries_and_project_ids(aio):
    admin = _admin(aio)
    long_id = 'p' * 256
    for method in ('get', 'put', 'delete'):
        resp = getattr(admin, method)('/os-quota-sets/%s' % long_id,
                                      json={'quota_set': {'cores': 1}})
        assert resp.status_code == 400, (method, resp.text)
        assert 'not a valid project' in sh.message(resp)
    project = _project()
    # From 2.75 an unknown parameter is refused; before, ignored.
    resp = admin.get('/os-quota-sets/%s?nosuch=1' % project)
    assert resp.status_code == 400 and 'nosuch' in sh.message(resp)
    _ok(_admin(aio, '2.74').get('/os-quota-sets/%s?nosuch=1' % project))
    resp = admin.get('/os-quota-sets/%s?user_id=%s' % (project, 'u' * 256))
    assert resp.status_code == 400
    # The defaults take any parameter, at every version.
    _ok(admin.get('/os-quota-sets/%s/defaults?nosuch=1' % project))


def test_who_may_do_what(aio):
    project = _project()
    member = _member(aio, project)
    other = _member(aio, _project())
    _ok(member.get('/os-quota-sets/%s' % project))
    _ok(member.get('/os-quota-sets/%s/detail' % project))
    for http in (member, other):
        resp = http.put('/os-quota-sets/%s' % project,
                        json={'quota_set': {'instances': 100}})
        assert resp.status_code == 403, resp.text
        assert http.delete('/os-quota-sets/%s' % project).status_code == 403
    for path in ('', '/detail'):
        assert other.get('/os-quota-sets/%s%s' % (project, path)) \
            .status_code == 403
    # Anyone sees the defaults (Nova's "@").
    _ok(other.get('/os-quota-sets/%s/defaults' % project))
    assert _ok(member.get('/os-quota-sets/%s' % project))['quota_set'][
        'instances'] == CONF.quota.instances
