"""Volume quota classes over HTTP (/os-quota-class-sets): show and set;
the ``default`` class's limits are every project's defaults (also of a
volume type's resources), and enforced; administrators only."""

import uuid

import pytest
import sqlalchemy as sa

from tests.functional import helpers
from tether.db.volume import models
from tether.db import session

RESOURCES = ['backup_gigabytes', 'backups', 'gigabytes', 'groups',
             'per_volume_gigabytes', 'snapshots', 'volumes']


@pytest.fixture
def classes(aio):
    """Forget the limits of the quota classes a test set (the default
    class's hold for every project of the session)."""
    yield
    ctx = helpers.admin_context()
    with session.VOLUME.writing(ctx):
        ctx.session.execute(sa.delete(models.QuotaClass))


def _admin(aio):
    return aio.http('admin', 'admin', version='3.71')


def _ok(resp, key='quota_class_set'):
    assert resp.status_code == 200, resp.text
    return resp.json()[key]


def _type(aio, admin):
    name = 'qc-' + uuid.uuid4().hex[:8]
    resp = admin.post('/types', json={'volume_type': {'name': name}})
    assert resp.status_code == 200, resp.text
    return resp.json()['volume_type']


def _message(resp):
    return next(iter(resp.json().values()))['message']


def test_story_the_default_class(aio, classes):
    admin = _admin(aio)
    shown = _ok(admin.get('/os-quota-class-sets/default'))
    assert shown['id'] == 'default'
    assert {k: shown[k] for k in RESOURCES} == {
        'volumes': 10, 'gigabytes': 1000, 'per_volume_gigabytes': -1,
        'snapshots': 10, 'backups': 10, 'backup_gigabytes': 1000,
        'groups': 10}
    # Each volume type's resources, unlimited unless set.
    assert shown['volumes___DEFAULT__'] == -1
    vtype = _type(aio, admin)
    per_type = 'volumes_%s' % vtype['name']
    updated = _ok(admin.put('/os-quota-class-sets/default', json={
        'quota_class_set': {'volumes': 2, 'gigabytes': '20',
                            'per_volume_gigabytes': -1, per_type: 1}}))
    # As Cinder: an update's answer has no id.
    assert 'id' not in updated
    assert (updated['volumes'], updated['gigabytes'], updated[per_type]) \
        == (2, 20, 1)
    # A project without limits of its own has the class's.
    http = aio.http()
    defaults = _ok(http.get('/os-quota-sets/%s/defaults' % http.project),
                   'quota_set')
    assert (defaults['volumes'], defaults['gigabytes'],
            defaults[per_type]) == (2, 20, 1)
    helpers.create_volume(http, size=1, volume_type=vtype['name'])
    resp = http.post('/volumes', json={'volume': {
        'size': 1, 'volume_type': vtype['name']}})
    assert resp.status_code == 413, resp.text
    assert per_type in _message(resp)
    helpers.create_volume(http, size=1)
    resp = http.post('/volumes', json={'volume': {'size': 1}})
    assert resp.status_code == 413, resp.text
    # A project's own limit comes first.
    resp = admin.put('/os-quota-sets/%s' % http.project,
                     json={'quota_set': {'volumes': 3}})
    assert resp.status_code == 200, resp.text
    helpers.create_volume(http, size=1)


def test_another_class(aio, classes):
    admin = _admin(aio)
    name = 'gold-' + uuid.uuid4().hex[:6]
    _ok(admin.put('/os-quota-class-sets/default',
                  json={'quota_class_set': {'snapshots': 4}}))
    # A class falls back on the default class, then on the options.
    shown = _ok(admin.get('/os-quota-class-sets/%s' % name))
    assert (shown['id'], shown['snapshots'], shown['volumes']) == (
        name, 4, 10)
    _ok(admin.put('/os-quota-class-sets/%s' % name,
                  json={'quota_class_set': {'volumes': 50}}))
    assert _ok(admin.get('/os-quota-class-sets/%s' % name))['volumes'] == 50
    # ... and it is no project's default.
    assert _ok(admin.get('/os-quota-class-sets/default'))['volumes'] == 10


@pytest.mark.parametrize('body', [
    {'quota_class_set': {'volumes': -2}},
    {'quota_class_set': {'volumes': '-1'}},
    {'quota_class_set': {'volumes': 'ten'}},
    {'quota_class_set': {'volumes': 2 ** 31}},
    {'quota_class_set': {'volumes': '99999999999'}},
    {'quota_class_set': {'nosuch': 1}},
    {'quota_class_set': {'volumes_nosuchtype': 1}},
    {'quota_class_set': {'bad/key': 1}},
    {'quota_class_set': {'volumes': 1}, 'more': 1},
    {'quota_set': {'volumes': 1}},
])
def test_bad_input_is_a_400_that_changes_nothing(aio, classes, body):
    admin = _admin(aio)
    before = _ok(admin.get('/os-quota-class-sets/default'))
    resp = admin.put('/os-quota-class-sets/default', json=body)
    assert resp.status_code == 400, resp.text
    assert _ok(admin.get('/os-quota-class-sets/default')) == before


def test_a_long_name_and_who_may(aio, classes):
    admin = _admin(aio)
    resp = admin.put('/os-quota-class-sets/%s' % ('c' * 256),
                     json={'quota_class_set': {'volumes': 1}})
    assert resp.status_code == 400
    assert 'quota_class_name' in _message(resp)
    for http in (aio.http(), aio.http(roles=['reader'])):
        assert http.get('/os-quota-class-sets/default').status_code == 403
        resp = http.put('/os-quota-class-sets/default',
                        json={'quota_class_set': {'volumes': 100}})
        assert resp.status_code == 403
    assert _ok(admin.get('/os-quota-class-sets/default'))['volumes'] == 10
