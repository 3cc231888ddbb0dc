"""Private volume types with the openstack CLI, over Keystone: the
project names are resolved by Keystone as users give them."""

from tests.integration.clients import unique


def test_private_type_access_with_the_cli(cloud):
    name = unique('private')
    cloud.openstack('admin', 'volume', 'type', 'create', '--private', name,
                    '-f', 'json')
    demo = cloud.project_id('demo')
    # Not for project demo yet.
    cloud.openstack_fails('member', 'volume', 'create', '--size', '1',
                          '--type', name, unique('vol'))

    cloud.openstack('admin', 'volume', 'type', 'set', '--project', 'demo',
                    name)
    shown = cloud.openstack('admin', 'volume', 'type', 'show', name,
                            '-f', 'json')
    assert demo in str(shown['access_project_ids'])
    assert name in [t['Name'] for t in cloud.openstack(
        'member', 'volume', 'type', 'list', '-f', 'json')]
    created = cloud.openstack('member', 'volume', 'create', '--size', '1',
                              '--type', name, unique('vol'), '-f', 'json')
    cloud.wait_volume('member', created['id'], 'available')

    cloud.openstack('admin', 'volume', 'type', 'unset', '--project', 'demo',
                    name)
    shown = cloud.openstack('admin', 'volume', 'type', 'show', name,
                            '-f', 'json')
    assert demo not in str(shown['access_project_ids'])
    assert name not in [t['Name'] for t in cloud.openstack(
        'member', 'volume', 'type', 'list', '-f', 'json')]

    cloud.openstack('member', 'volume', 'delete', created['id'])
    cloud.wait_volume_gone('member', created['id'])
    cloud.openstack('admin', 'volume', 'type', 'delete', name)
