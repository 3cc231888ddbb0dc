"""The compute API's samples of flavor management: create, update,
extra specs, access lists, delete (doc/api_samples/compute/), replayed
as an administrator."""

import uuid

from tests.functional.api_samples import samples

VERSION = '2.75'


def test_the_flavor_management_story(aio):
    admin = aio.compute_http('operator', 'ops-' + uuid.uuid4().hex[:8],
                             roles=['admin'], version=VERSION)
    suffix = uuid.uuid4().hex[:6]
    story = samples.Samples(
        'compute', admin, flavor_id='web-' + suffix,
        flavor_name='web.large-' + suffix,
        member_project='project-' + uuid.uuid4().hex[:8])
    subs = story.subs
    flavor = {'id': subs['flavor_id'], 'name': subs['flavor_name'],
              'ram': 1024, 'vcpus': 2, 'disk': 10,
              'description': 'the web tier',
              'os-flavor-access:is_public': False}
    story.exchange('flavor-create', 'POST', '/flavors', {'flavor': flavor},
                   version=VERSION)
    path = '/flavors/%s' % subs['flavor_id']
    story.exchange('flavor-update', 'PUT', path, {
        'flavor': {'description': 'the web tier, two cores'}},
        version=VERSION)

    specs = path + '/os-extra_specs'
    story.exchange('flavor-extra-specs-create', 'POST', specs, {
        'extra_specs': {'hw:cpu_policy': 'dedicated',
                        'quota:cpu_shares': '512'}}, version=VERSION)
    story.exchange('flavor-extra-specs-list', 'GET', specs, version=VERSION)
    story.exchange('flavor-extra-spec-show', 'GET',
                   specs + '/hw:cpu_policy', version=VERSION)
    story.exchange('flavor-extra-spec-update', 'PUT',
                   specs + '/hw:cpu_policy', {'hw:cpu_policy': 'shared'},
                   version=VERSION)
    story.exchange('flavor-extra-spec-delete', 'DELETE',
                   specs + '/hw:cpu_policy', version=VERSION)

    story.exchange('flavor-access-add', 'POST', path + '/action', {
        'addTenantAccess': {'tenant': subs['member_project']}},
        version=VERSION)
    story.exchange('flavor-access-list', 'GET', path + '/os-flavor-access',
                   version=VERSION)
    story.exchange('flavor-access-remove', 'POST', path + '/action', {
        'removeTenantAccess': {'tenant': subs['member_project']}},
        version=VERSION)
    story.exchange('flavor-delete', 'DELETE', path, version=VERSION)
