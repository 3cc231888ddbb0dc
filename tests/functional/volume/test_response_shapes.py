"""Every read of the volume API at the microversions where its answers
change, as an administrator, a member and a reader: the functional tests
check each answer against what its handler declares (tether.api.
responses, [api] response_validation = error), so a key more, a key
missing or a wrong type at any of these versions is a 500 here."""

import pytest

from tests.functional.conftest import wait_for
from tests.functional import helpers
from tests.functional.volume import snapshot_helpers
from tether.api.volume import versions

# The first version of each window of the volume API's answers.
VERSIONS = sorted({versions.BASE, versions.SERVICE_CLUSTER,
                   versions.SUMMARY, versions.GROUP_ID,
                   versions.GROUP_SNAPSHOT_ID, versions.PROVIDER_ID,
                   versions.ATTACHMENTS, versions.SUMMARY_METADATA,
                   versions.SNAPSHOT_USER_ID, versions.WITH_COUNT,
                   versions.SHARED_TARGETS, versions.BACKEND_STATE,
                   versions.CLUSTER_NAME, versions.VOLUME_TYPE_ID,
                   versions.CONSUMES_QUOTA, versions.MAX_VERSION},
                  key=lambda v: tuple(map(int, v.split('.'))))


def _at_least(version, named):
    return tuple(map(int, version.split('.'))) >= \
        tuple(map(int, named.split('.')))


@pytest.fixture(scope='module')
def world(aio):
    """One project with a volume (metadata, an attachment, image
    metadata) and a snapshot, and a private type it may use."""
    owner = aio.http(version=versions.MAX_VERSION)
    admin = aio.http('admin', 'admin', version=versions.MAX_VERSION)
    volume = helpers.create_volume(owner, wait_for=wait_for,
                                   metadata={'k': 'v'})
    helpers.set_image_metadata(volume['id'], {'image_name': 'cirros'})
    resp = owner.post('/attachments', json={'attachment': {
        'volume_uuid': volume['id'],
        'instance_uuid': '6f1e3c2a-0b7d-4c55-9a1e-2f3b4c5d6e7f'}})
    assert resp.status_code == 200, resp.text
    attachment = resp.json()['attachment']
    spare = helpers.create_volume(owner, wait_for=wait_for)
    snapshot = snapshot_helpers.snapshot(owner, spare['id'],
                                         wait_for=wait_for,
                                         metadata={'s': 't'})
    resp = admin.post('/types', json={'volume_type': {
        'name': 'shapes-private', 'os-volume-type-access:is_public': False,
        'extra_specs': {'volume_backend_name': 'x',
                        'multiattach': '<is> False'}}})
    assert resp.status_code == 200, resp.text
    vtype = resp.json()['volume_type']
    resp = admin.post('/types/%s/action' % vtype['id'], json={
        'addProjectAccess': {'project': owner.project}})
    assert resp.status_code == 202, resp.text
    return {'project': owner.project, 'user': owner.user,
            'volume': volume['id'], 'attachment': attachment['id'],
            'snapshot': snapshot['id'], 'type': vtype['id']}


def _reads(world, version):
    v, s, t = world['volume'], world['snapshot'], world['type']
    paths = ['/volumes', '/volumes?limit=1', '/volumes/detail',
             '/volumes/detail?limit=1', '/volumes/%s' % v,
             '/volumes/%s/metadata' % v, '/volumes/%s/metadata/k' % v,
             '/snapshots', '/snapshots/detail', '/snapshots/%s' % s,
             '/snapshots/%s/metadata' % s, '/snapshots/%s/metadata/s' % s,
             '/types', '/types?limit=1', '/types/%s' % t, '/types/default',
             '/types/%s/extra_specs' % t,
             '/types/%s/extra_specs/multiattach' % t,
             '/types/%s/os-volume-type-access' % t,
             '/limits', '/os-quota-sets/%s' % world['project'],
             '/os-quota-sets/%s?usage=true' % world['project'],
             '/os-quota-sets/%s/defaults' % world['project'],
             '/extensions', '/os-availability-zone', '/os-services']
    if _at_least(version, versions.SUMMARY):
        paths.append('/volumes/summary')
    if _at_least(version, versions.WITH_COUNT):
        paths += ['/volumes?with_count=true',
                  '/volumes/detail?with_count=true',
                  '/snapshots/detail?with_count=true']
    if _at_least(version, versions.ATTACHMENTS):
        paths += ['/attachments', '/attachments/detail',
                  '/attachments/%s' % world['attachment']]
    return paths


@pytest.mark.parametrize('version', VERSIONS)
@pytest.mark.parametrize('persona', ['admin', 'member', 'reader'])
def test_every_read_at_every_window(aio, world, version, persona):
    if persona == 'admin':
        http = aio.http('admin', 'admin', version=version)
    else:
        roles = ['reader'] if persona == 'reader' else None
        http = aio.http(world['user'], world['project'], roles=roles,
                        version=version)
    for path in _reads(world, version):
        resp = http.get(path)
        # A refusal by policy is no answer to check.
        assert resp.status_code in (200, 403), (path, resp.text)
        if persona == 'admin' and 'os-quota-sets' not in path:
            assert resp.status_code == 200, (path, resp.text)
    resp = http.post('/volumes/%s/action' % world['volume'],
                     json={'os-show_image_metadata': None})
    assert resp.status_code in (200, 403), resp.text


@pytest.mark.parametrize('version', VERSIONS)
def test_writes_answer_their_shape_at_every_window(aio, world, wait,
                                                   version):
    http = aio.http(world['user'], world['project'], version=version)
    resp = http.post('/volumes', json={'volume': {'size': 1}})
    assert resp.status_code == 202, resp.text
    volume = resp.json()['volume']
    resp = http.put('/volumes/%s' % volume['id'],
                    json={'volume': {'name': 'renamed'}})
    assert resp.status_code == 200, resp.text
    helpers.wait_until_status(http, volume['id'], 'available', wait)
    snapshot = snapshot_helpers.snapshot(http, volume['id'])
    resp = http.put('/snapshots/%s' % snapshot['id'],
                    json={'snapshot': {'name': 'renamed'}})
    assert resp.status_code == 200, resp.text
    snapshot_helpers.wait_status(http, snapshot['id'], 'available', wait)
    assert http.delete('/snapshots/%s' % snapshot['id']).status_code == 202
    snapshot_helpers.wait_gone(http, '/snapshots/%s' % snapshot['id'], wait)
    assert http.delete('/volumes/%s' % volume['id']).status_code == 202
