"""The volume API's samples of volume types, their extra specs and access
lists (doc/api_samples/volume/), replayed as an administrator."""

import uuid

from tests.functional.api_samples import samples

VERSION = '3.71'


def _admin(aio):
    return aio.http('operator', 'ops-' + uuid.uuid4().hex[:8],
                    roles=['admin'], version=VERSION)


def test_the_volume_types_story(aio):
    http = _admin(aio)
    member = 'project-' + uuid.uuid4().hex[:8]
    name = 'gold-' + uuid.uuid4().hex[:6]
    story = samples.Samples('volume', http, member_project=member,
                            type_name=name)
    created = story.exchange('type-create', 'POST', '/types', {
        'volume_type': {'name': name,
                        'description': 'fast storage',
                        'os-volume-type-access:is_public': False,
                        'extra_specs': {'tier': 'gold'}}},
        version=VERSION)['volume_type']
    story.subs['type_id'] = created['id']
    path = '/types/%s' % created['id']
    story.exchange('type-show', 'GET', path, version=VERSION)
    # The newest type first: this one, whatever else the cloud holds.
    story.exchange('types-list', 'GET',
                   '/types?is_public=none&sort_dir=desc&limit=1',
                   version=VERSION)
    story.exchange('type-update', 'PUT', path, {
        'volume_type': {'description': 'fast, replicated storage'}},
        version=VERSION)
    story.exchange('type-default-show', 'GET', '/types/default',
                   version=VERSION)

    story.exchange('type-extra-specs-create', 'POST', path + '/extra_specs',
                   {'extra_specs': {'replicas': '3'}}, version=VERSION)
    story.exchange('type-extra-specs-list', 'GET', path + '/extra_specs',
                   version=VERSION)
    story.exchange('type-extra-spec-show', 'GET',
                   path + '/extra_specs/replicas', version=VERSION)
    story.exchange('type-extra-spec-update', 'PUT',
                   path + '/extra_specs/replicas', {'replicas': '2'},
                   version=VERSION)
    story.exchange('type-extra-spec-delete', 'DELETE',
                   path + '/extra_specs/replicas', version=VERSION)

    story.exchange('type-access-add', 'POST', path + '/action', {
        'addProjectAccess': {'project': member}}, version=VERSION)
    story.exchange('type-access-list', 'GET',
                   path + '/os-volume-type-access', version=VERSION)
    story.exchange('type-access-remove', 'POST', path + '/action', {
        'removeProjectAccess': {'project': member}}, version=VERSION)
    story.exchange('type-delete', 'DELETE', path, version=VERSION)


def test_the_default_types_story(aio):
    http = _admin(aio)
    # The list shows every project's: of this story's alone.
    for default in http.get('/default-types', headers={
            'OpenStack-API-Version': 'volume ' + VERSION}).json()[
            'default_types']:
        http.delete('/default-types/%s' % default['project_id'], headers={
            'OpenStack-API-Version': 'volume ' + VERSION})
    member = 'project-' + uuid.uuid4().hex[:8]
    name = 'silver-' + uuid.uuid4().hex[:6]
    created = http.post('/types', json={'volume_type': {'name': name}},
                        headers={'OpenStack-API-Version':
                                 'volume ' + VERSION})
    assert created.status_code == 200, created.text
    type_id = created.json()['volume_type']['id']
    story = samples.Samples('volume', http, member_project=member,
                            type_name=name, type_id=type_id)
    path = '/default-types/%s' % member
    story.exchange('default-type-set', 'PUT', path, {
        'default_type': {'volume_type': name}}, version=VERSION)
    story.exchange('default-type-show', 'GET', path, version=VERSION)
    story.exchange('default-types-list', 'GET', '/default-types',
                   version=VERSION)
    story.exchange('default-type-unset', 'DELETE', path, version=VERSION)
    assert http.delete('/types/%s' % type_id).status_code == 202


def test_the_resource_filters_story(aio):
    story = samples.Samples('volume', aio.http(version=VERSION))
    story.exchange('resource-filters-list', 'GET', '/resource_filters',
                   version=VERSION)
