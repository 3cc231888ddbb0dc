"""A Manila share attached to a server with the openstack CLI
(``--os-compute-api-version 2.97``), under Keystone: the deployment's
Manila on its one-node Ceph, tether-compute granting its host access with
its ``[share]`` credentials and mounting the share with ceph-fuse.

A member of the project makes a CEPHFS share (``openstack share create``,
python-manilaclient's plugin of the CLI) and a server of the tiny test
guest booted onto a new volume, then: the attach refused while the server
runs, the attach of the stopped server, its states as the server starts
and stops, what the member and an administrator see of it, and the
detach. The guest is there to power off at once when it is stopped (the
ACPI power button): a guest without an OS ignores it, and each stop then
takes the compute service's ``shutdown_timeout`` (60 s) before it
destroys the guest.
"""

import os

import pytest

from tests.integration.clients import CLIError, unique, wait_for

V = '2.97'
TINY = 'tether-tiny-a'
# m1.micro (128 MiB): the tiny guest's kernel needs more than 64.
FLAVOR = '2'


@pytest.fixture
def share(cloud):
    """A CEPHFS share of the demo project, available; deleted after the
    test (tether's locked access rule must be gone by then)."""
    created = cloud.openstack(
        'member', 'share', 'create', 'CEPHFS', '1', '--share-type', 'cephfs',
        '--name', unique('share'), '--wait', '-f', 'json')
    assert created['status'] == 'available', created
    yield created
    cloud.openstack('member', 'share', 'delete', '--wait', created['id'])


@pytest.fixture
def server(cloud, guest_images):
    """A server of the demo project, the tiny guest booted onto a new
    volume, up."""
    image = cloud.openstack(
        'member', 'image', 'create', '--file', guest_images[TINY],
        '--disk-format', 'raw', '--container-format', 'bare',
        unique(TINY), '-f', 'json')
    created = cloud.openstack(
        'member', 'server', 'create', '--image', image['id'],
        '--boot-from-volume', '1', '--flavor', FLAVOR, '--nic', 'none',
        '--wait', unique('srv'), '-f', 'json')
    [root_id] = [v['Volume ID'] for v in cloud.openstack(
        'member', 'server', 'volume', 'list', created['id'], '-f', 'json')]
    cloud.wait_guest_up('member', created['id'])
    yield created
    cloud.openstack('member', 'server', 'delete', '--wait', created['id'])
    cloud.wait_volume('member', root_id, 'available')
    cloud.openstack('member', 'volume', 'delete', root_id)
    cloud.wait_volume_gone('member', root_id)
    cloud.openstack('member', 'image', 'delete', image['id'])


def _shares(cloud, server_id):
    return cloud.openstack('member', 'server', 'share', 'list', server_id,
                           '-f', 'json', compute_version=V)


def _wait_status(cloud, server_id, share_id, status):
    wait_for(lambda: [(s['Share ID'], s['Status'])
                      for s in _shares(cloud, server_id)] == [
                          (share_id, status)], 120, interval=0.5,
             what='share %s of %s to be %s' % (share_id, server_id, status))


def _mounted(cloud, share_id):
    """Whether the compute host has the share mounted."""
    path = os.path.join(cloud.deployment.state_dir, 'mnt-shares', share_id)
    with open('/proc/self/mounts') as f:
        return any(line.split()[1] == path for line in f)


def _power(cloud, action, server_id, status):
    cloud.openstack('member', 'server', action, server_id)
    cloud.wait_server('member', server_id, status)


def test_a_share_attached_to_a_server(cloud, share, server):
    os_ = cloud.openstack

    # Refused while the server runs: the CLI shows the API's 409.
    refused = cloud.openstack_fails(
        'member', 'server', 'add', 'share', server['id'], share['id'],
        '--tag', 'data', compute_version=V)
    assert '409' in refused, refused
    assert ("Cannot 'attach_share' instance %s while it is in vm_state "
            "active" % server['id']) in refused, refused
    assert _shares(cloud, server['id']) == []

    _power(cloud, 'stop', server['id'], 'SHUTOFF')
    # By name: the CLI finds the share in Manila (the sharev2 of the
    # catalog) with the member's token.
    added = os_('member', 'server', 'add', 'share', server['id'],
                share['name'], '--tag', 'data', '-f', 'json',
                compute_version=V)
    assert (added['Share ID'], added['Tag']) == (share['id'], 'data')
    assert added['Status'] in ('attaching', 'inactive'), added
    _wait_status(cloud, server['id'], share['id'], 'inactive')

    # The member sees neither the attachment's UUID nor the export; an
    # administrator sees both, the export being Manila's CephFS path.
    shown = os_('member', 'server', 'share', 'show', server['id'],
                share['id'], '-f', 'json', compute_version=V)
    assert shown == {'Share ID': share['id'], 'Status': 'inactive',
                     'Tag': 'data'}
    shown = os_('admin', 'server', 'share', 'show', server['id'],
                share['id'], '-f', 'json', compute_version=V)
    assert (shown['Share ID'], shown['Status'], shown['Tag']) == (
        share['id'], 'inactive', 'data')
    assert shown['UUID']
    assert ':/volumes/_nogroup/' in shown['Export Location'], shown
    exports = os_('admin', 'share', 'export', 'location', 'list',
                  share['id'], '-f', 'json')
    assert shown['Export Location'] in [e['Path'] for e in exports]

    # Manila holds tether-compute's rule locked by the service (its
    # token's service role): the member sees neither its cephx name nor
    # its key, and cannot delete the share while it is attached.
    [rule] = os_('member', 'share', 'access', 'list', share['id'],
                 '-f', 'json')
    assert (rule['Access Type'], rule['State'], rule['Access To'],
            rule['Access Key']) == ('cephx', 'active', '******', '******')
    with pytest.raises(CLIError) as locked:
        os_('member', 'share', 'delete', share['id'])
    assert 'prevent delete action' in locked.value.output

    # Started: the host mounts the share, and the mapping is active.
    _power(cloud, 'start', server['id'], 'ACTIVE')
    _wait_status(cloud, server['id'], share['id'], 'active')
    assert _mounted(cloud, share['id'])
    cloud.wait_guest_up('member', server['id'])
    # Stopped: inactive, and unmounted (its last user stopped).
    _power(cloud, 'stop', server['id'], 'SHUTOFF')
    _wait_status(cloud, server['id'], share['id'], 'inactive')
    assert not _mounted(cloud, share['id'])

    os_('member', 'server', 'remove', 'share', server['id'], share['name'],
        compute_version=V)
    wait_for(lambda: _shares(cloud, server['id']) == [], 120, interval=0.5,
             what='the share to be detached from %s' % server['id'])
    # Its access rule went with it: the share is the member's alone again.
    assert os_('member', 'share', 'access', 'list', share['id'],
               '-f', 'json') == []
