"""Compute quota classes over HTTP (/os-quota-class-sets): show and set,
per microversion; the ``default`` class's limits are every project's
defaults, and enforced; administrators only; the openstack CLI's
``quota set --class``."""

import uuid

from oslo_config import cfg
import pytest
import sqlalchemy as sa

from tests.functional import cli
from tests.functional.compute import server_helpers as sh
from tests.functional import helpers
from tether.db.compute import models
from tether.db import session

CONF = cfg.CONF
V2_57 = ['cores', 'instances', 'key_pairs', 'metadata_items', 'ram',
         'server_group_members', 'server_groups']
V2_50 = sorted(V2_57 + ['injected_file_content_bytes',
                        'injected_file_path_bytes', 'injected_files'])
V2_1 = sorted([k for k in V2_50 if not k.startswith('server_group')] +
              ['fixed_ips', 'floating_ips', 'security_group_rules',
               'security_groups'])


@pytest.fixture
def classes(aio):
    """Forget the limits of the quota classes a test set (the default
    class's hold for every project of the session)."""
    yield
    ctx = helpers.admin_context()
    with session.COMPUTE.writing(ctx):
        ctx.session.execute(sa.delete(models.QuotaClass))


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def _admin(aio, version='2.97'):
    return aio.compute_http('admin', 'admin', version=version)


def _ok(resp):
    assert resp.status_code == 200, resp.text
    return resp.json()['quota_class_set']


@pytest.mark.parametrize('version, keys', [
    ('2.1', V2_1), ('2.49', V2_1), ('2.50', V2_50), ('2.56', V2_50),
    ('2.57', V2_57), ('2.97', V2_57)])
def test_the_keys_of_each_microversion(aio, classes, version, keys):
    admin = _admin(aio, version)
    shown = _ok(admin.get('/os-quota-class-sets/default'))
    assert sorted(shown) == sorted(keys + ['id'])
    assert shown['id'] == 'default'
    assert shown['instances'] == CONF.quota.instances
    updated = _ok(admin.put('/os-quota-class-sets/default', json={
        'quota_class_set': {'key_pairs': 77}}))
    # As Nova: an update's answer has no id.
    assert sorted(updated) == keys
    assert updated['key_pairs'] == 77


def test_the_default_class_is_every_projects_defaults(cloud, classes):
    admin = cloud.admin().compute('2.97')
    _ok(admin.put('/os-quota-class-sets/default', json={
        'quota_class_set': {'instances': 1, 'cores': '3'}}))
    project = cloud.project()
    defaults = project.compute('2.97').get(
        '/os-quota-sets/%s/defaults' % project.project).json()['quota_set']
    assert (defaults['instances'], defaults['cores'], defaults['ram']) == (
        1, 3, CONF.quota.ram)
    project.boot()
    resp = project.compute('2.97').post(
        '/servers', json=sh.server_body(project.volume()['id']))
    assert resp.status_code == 403, resp.text
    assert sh.message(resp) == ('Quota exceeded for instances: Requested '
                                '1, but already used 1 of 1 instances')
    # A project's own limit comes first.
    resp = admin.put('/os-quota-sets/%s' % project.project,
                     json={'quota_set': {'instances': 2}})
    assert resp.status_code == 200
    project.boot()


def test_another_class_is_kept_and_shown(aio, classes):
    admin = _admin(aio)
    name = 'gold-' + uuid.uuid4().hex[:6]
    # A class never set shows the [quota] options.
    assert _ok(admin.get('/os-quota-class-sets/%s' % name))[
        'instances'] == CONF.quota.instances
    _ok(admin.put('/os-quota-class-sets/%s' % name,
                  json={'quota_class_set': {'instances': 50}}))
    assert _ok(admin.get('/os-quota-class-sets/%s' % name))[
        'instances'] == 50
    # ... and it is no project's default.
    assert _ok(admin.get('/os-quota-class-sets/default'))[
        'instances'] == CONF.quota.instances


@pytest.mark.parametrize('version, body', [
    ('2.97', {'quota_class_set': {'instances': -2}}),
    ('2.97', {'quota_class_set': {'instances': 'x'}}),
    ('2.97', {'quota_class_set': {'instances': 2 ** 31}}),
    ('2.97', {'quota_class_set': {'injected_files': 1}}),
    ('2.56', {'quota_class_set': {'floating_ips': 1}}),
    ('2.97', {'quota_class_set': {'force': True}}),
    ('2.97', {'quota_set': {'instances': 1}}),
])
def test_bad_input_is_a_400_that_changes_nothing(aio, classes, version,
                                                 body):
    admin = _admin(aio, version)
    before = _ok(admin.get('/os-quota-class-sets/default'))
    resp = admin.put('/os-quota-class-sets/default', json=body)
    assert resp.status_code == 400, resp.text
    assert _ok(admin.get('/os-quota-class-sets/default')) == before


def test_a_long_name_and_who_may(aio, classes):
    admin = _admin(aio)
    resp = admin.put('/os-quota-class-sets/%s' % ('c' * 256),
                     json={'quota_class_set': {'instances': 1}})
    assert resp.status_code == 400
    assert sh.message(resp) == 'quota_class_name has more than 255 ' \
        'characters.'
    # Below 2.50 the server group quotas are set, not shown.
    old = _admin(aio, '2.49')
    updated = _ok(old.put('/os-quota-class-sets/default', json={
        'quota_class_set': {'server_groups': 4}}))
    assert 'server_groups' not in updated
    assert _ok(admin.get('/os-quota-class-sets/default'))[
        'server_groups'] == 4
    member = aio.compute_http(version='2.97')
    assert member.get('/os-quota-class-sets/default').status_code == 403
    assert member.put('/os-quota-class-sets/default', json={
        'quota_class_set': {'instances': 100}}).status_code == 403


def test_the_openstack_cli(aio, classes, tmp_path):
    openstack = cli.CLI(aio, tmp_path, 'admin', 'admin')
    # Deprecated by the CLI (--default is the new name, which needs
    # Keystone to find the caller's project), and still sent as Nova
    # takes it.
    openstack.run('quota', 'set', '--class', '--instances', '9', '--ram',
                  '4096', 'default')
    shown = _ok(_admin(aio).get('/os-quota-class-sets/default'))
    assert (shown['instances'], shown['ram']) == (9, 4096)
