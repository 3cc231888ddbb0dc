"""A volume in a list is the volume its show returns: the list reads its
rows and their relations (metadata, admin metadata, image metadata,
attachments) in a few statements for the whole page, the show through
the volume's model; both must say the same, field for field."""

import pytest

from tests.functional.conftest import wait_for
from tests.functional import helpers
from tests.functional.volume import retype_helpers
from tether.api.volume import versions


@pytest.fixture(scope='module')
def world(aio):
    """A project with three volumes: one with everything a volume can
    carry (user metadata, the read-only flag that admin metadata shows,
    image metadata, two attachments in use), one attached once, one bare;
    and a second project's volume."""
    owner = aio.http(version=versions.MAX_VERSION)
    admin = aio.http('admin', 'admin', version=versions.MAX_VERSION)
    resp = admin.post('/types', json={'volume_type': {
        'name': 'list-entries-multi',
        'extra_specs': {'multiattach': '<is> True'}}})
    assert resp.status_code == 200, resp.text
    multi = helpers.create_volume(owner, wait_for=wait_for,
                                  metadata={'k': 'v', 'k2': 'v2'},
                                  volume_type='list-entries-multi')
    helpers.set_image_metadata(multi['id'], {'image_name': 'cirros',
                                             'image_id': 'c1'})
    resp = admin.post('/volumes/%s/action' % multi['id'], json={
        'os-update_readonly_flag': {'readonly': True}})
    assert resp.status_code == 202, resp.text
    retype_helpers.attach(owner, multi['id'])
    retype_helpers.attach(owner, multi['id'])
    once = helpers.create_volume(owner, wait_for=wait_for)
    retype_helpers.attach(owner, once['id'])
    bare = helpers.create_volume(owner, wait_for=wait_for)
    other = aio.http(project='list-entries-other',
                     version=versions.MAX_VERSION)
    elsewhere = helpers.create_volume(other, wait_for=wait_for,
                                      metadata={'there': 'yes'})
    return {'aio': aio, 'owner': owner, 'admin': admin,
            'ids': [multi['id'], once['id'], bare['id']],
            'elsewhere': elsewhere['id']}


def _listed(http, path):
    resp = http.get(path)
    assert resp.status_code == 200, resp.text
    return {v['id']: v for v in resp.json()['volumes']}


def _shown(http, volume_id):
    return retype_helpers.shown(http, volume_id)


@pytest.mark.parametrize('version', ['3.0', '3.48', versions.MAX_VERSION])
def test_each_listed_volume_is_its_show(world, version):
    owner = world['aio'].http(world['owner'].user, world['owner'].project,
                              version=version)
    listed = _listed(owner, '/volumes/detail')
    assert sorted(listed) == sorted(world['ids'])
    for volume_id in world['ids']:
        assert listed[volume_id] == _shown(owner, volume_id)


def test_the_relations_are_read_for_the_page(world):
    """What the page's statements read reaches each volume: a list that
    lost a relation would still equal a show that lost it too."""
    multi, once, bare = world['ids']
    listed = _listed(world['owner'], '/volumes/detail')
    assert listed[multi]['metadata'] == {'k': 'v', 'k2': 'v2',
                                         'readonly': 'True'}
    assert listed[multi]['volume_image_metadata'] == {
        'image_name': 'cirros', 'image_id': 'c1'}
    assert len(listed[multi]['attachments']) == 2
    assert [a['volume_id'] for a in listed[once]['attachments']] == [once]
    assert listed[bare]['attachments'] == []
    assert listed[bare]['metadata'] == {}
    assert 'volume_image_metadata' not in listed[bare]


def test_a_page_of_one_and_every_project(world):
    """A short page (limit 1, after a marker) and an administrator's list
    of every project hold the same entries."""
    owner, admin = world['owner'], world['admin']
    multi, once, bare = world['ids']
    first = owner.get('/volumes/detail?limit=1&sort=created_at:asc')
    assert first.status_code == 200, first.text
    [entry] = first.json()['volumes']
    assert entry == _shown(owner, multi)
    resp = owner.get('/volumes/detail?limit=1&sort=created_at:asc'
                     '&marker=%s' % multi)
    assert resp.status_code == 200, resp.text
    assert resp.json()['volumes'] == [_shown(owner, once)]
    every = _listed(admin, '/volumes/detail?all_tenants=1')
    for volume_id in world['ids'] + [world['elsewhere']]:
        assert every[volume_id] == _shown(admin, volume_id)
