"""The shapes of the volume API's answers to a create and an update, as
Cinder answers them (Tempest's response schemas refuse anything more):
the attributes Cinder's API extensions add to a GET are not in them."""

from tests.functional import helpers

# What Cinder's extensions add to a GET of a volume.
EXTENDED = {'os-vol-tenant-attr:tenant_id', 'os-vol-host-attr:host',
            'os-vol-mig-status-attr:migstat',
            'os-vol-mig-status-attr:name_id', 'volume_image_metadata'}


def test_create_and_update_answer_without_extended_attributes(aio, wait):
    admin = aio.http('admin', 'admin')
    resp = admin.post('/volumes', json={'volume': {'size': 1,
                                                   'name': 'shape'}})
    assert resp.status_code == 202, resp.text
    created = resp.json()['volume']
    assert not EXTENDED & set(created), created
    assert created['name'] == 'shape'
    helpers.wait_until_status(admin, created['id'], 'available', wait)

    resp = admin.put('/volumes/%s' % created['id'],
                     json={'volume': {'description': 'reshaped'}})
    assert resp.status_code == 200, resp.text
    updated = resp.json()['volume']
    assert not EXTENDED & set(updated), updated
    assert updated['description'] == 'reshaped'

    # A GET has them, for an admin.
    shown = admin.get('/volumes/%s' % created['id']).json()['volume']
    assert {'os-vol-tenant-attr:tenant_id', 'os-vol-host-attr:host',
            'os-vol-mig-status-attr:migstat'} <= set(shown)
    assert set(shown) - EXTENDED == set(created) | {'updated_at'}


def test_migration_status_is_for_administrators(aio, wait):
    """As Cinder, which adds migration_status to a volume for
    administrators alone (os-vol-mig-status-attr:migstat is the policy's)."""
    owner = aio.http()
    volume = helpers.create_volume(owner, wait_for=wait)
    assert 'migration_status' not in volume
    path = '/volumes/%s' % volume['id']
    assert 'migration_status' not in owner.get(path).json()['volume']
    listed = owner.get('/volumes/detail').json()['volumes']
    assert [v for v in listed if 'migration_status' in v] == []
    admin = aio.http('admin', 'admin')
    assert admin.get(path).json()['volume']['migration_status'] is None


def test_replication_status_is_disabled(aio):
    """As Cinder sets it on a volume whose type asks for no replication
    (tether replicates none)."""
    owner = aio.http()
    volume = helpers.create_volume(owner)
    assert volume['replication_status'] == 'disabled'
    shown = owner.get('/volumes/%s' % volume['id']).json()['volume']
    assert shown['replication_status'] == 'disabled'
