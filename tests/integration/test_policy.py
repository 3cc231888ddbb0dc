"""The default policy over Keystone tokens: the roles of the personas
(reader, member, admin, service) as Keystone gives them, checked by the
volume API, with the openstack CLI. Each denial leaves the volume as it
was."""

import pytest

from tests.integration.clients import unique

COMPLETION_VERSION = '3.71'


@pytest.fixture(scope='module')
def volume(cloud):
    """A volume of the demo project (its member's)."""
    created = cloud.openstack('member', 'volume', 'create', '--size', '1',
                              unique('pol'), '-f', 'json')
    volume = cloud.wait_volume('member', created['id'], 'available')
    yield volume
    cloud.openstack('member', 'volume', 'delete', volume['id'])
    cloud.wait_volume_gone('member', volume['id'])


def _forbidden(output, rule):
    assert '403' in output, output
    assert 'Policy does not allow %s to be performed' % rule in output, (
        output)


def _demo_volume_count(cloud):
    return len([v for v in cloud.volumes('admin', all_projects=True)
                if v['os-vol-tenant-attr:tenant_id'] ==
                cloud.project_id('demo')])


def test_a_reader_reads_but_changes_nothing(cloud, volume):
    # A reader of the project sees its volumes ...
    shown = cloud.openstack('reader', 'volume', 'show', volume['id'],
                            '-f', 'json')
    assert (shown['id'], shown['status']) == (volume['id'], 'available')
    assert volume['id'] in [v['ID'] for v in cloud.openstack(
        'reader', 'volume', 'list', '-f', 'json')]

    # ... and may not create, extend or delete one.
    count = _demo_volume_count(cloud)
    _forbidden(cloud.openstack_fails('reader', 'volume', 'create',
                                     '--size', '1', unique('denied')),
               'volume:create')
    assert _demo_volume_count(cloud) == count
    _forbidden(cloud.openstack_fails('reader', 'volume', 'set', '--size',
                                     '2', volume['id']),
               'volume:extend')
    _forbidden(cloud.openstack_fails('reader', 'volume', 'delete',
                                     volume['id']),
               'volume:delete')
    after = cloud.get_volume('member', volume['id'])
    assert (after['status'], after['size']) == ('available', 1)
    cloud.assert_quota_matches('demo')


def test_a_member_may_not_call_admin_actions(cloud, volume):
    # os-reset_status (openstack volume set --state).
    _forbidden(cloud.openstack_fails('member', 'volume', 'set', '--state',
                                     'error', volume['id']),
               'volume_extension:volume_admin_actions:reset_status')
    # os-extend_volume_completion: only the compute service (or an
    # administrator) completes an extend; no CLI sends it.
    resp = cloud.volume_request(
        'member', 'POST', '/volumes/%s/action' % volume['id'],
        COMPLETION_VERSION,
        json={'os-extend_volume_completion': {'error': False}})
    assert resp.status_code == 403, resp.text
    assert 'extend_volume_completion' in resp.text
    assert cloud.get_volume('member', volume['id'])['status'] == 'available'


def test_a_member_does_not_see_another_project(cloud, volume):
    for ref in (volume['id'], volume['name']):
        output = cloud.openstack_fails('alt', 'volume', 'show', ref)
        assert 'No Volume found for %s' % ref in output
    # --all-projects is for administrators: alt sees its own volumes only.
    listed = cloud.openstack('alt', 'volume', 'list', '--all-projects',
                             '-f', 'json')
    assert volume['id'] not in [v['ID'] for v in listed]
    resp = cloud.volume_request('alt', 'DELETE', '/volumes/' + volume['id'])
    assert resp.status_code == 404, resp.text
    assert cloud.get_volume('member', volume['id'])['status'] == 'available'


def test_the_service_user_may(cloud, volume):
    """The user tether's services call each other as (admin and service
    roles in the service project) acts on the volumes of other projects."""
    listed = cloud.openstack('tether', 'volume', 'list', '--all-projects',
                             '-f', 'json')
    assert volume['id'] in [v['ID'] for v in listed]
    # The completion passes the policy; it is refused only because no
    # extend waits for it.
    resp = cloud.volume_request(
        'tether', 'POST', '/volumes/%s/action' % volume['id'],
        COMPLETION_VERSION,
        json={'os-extend_volume_completion': {'error': False}})
    assert resp.status_code in (400, 409), resp.text
    assert 'Policy' not in resp.text
    # os-reset_status, there and back.
    cloud.openstack('tether', 'volume', 'set', '--state', 'error',
                    volume['id'])
    assert cloud.get_volume('member', volume['id'])['status'] == 'error'
    cloud.openstack('tether', 'volume', 'set', '--state', 'available',
                    volume['id'])
    assert cloud.get_volume('member', volume['id'])['status'] == 'available'
