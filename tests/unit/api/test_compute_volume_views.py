"""The /os-volumes and /os-snapshots views: the volume API's keys in
Nova's legacy names."""

from tether.api.compute.views import snapshots
from tether.api.compute.views import volumes

VOLUME = {
    'id': 'v1', 'status': 'available', 'size': 2,
    'availability_zone': 'nova', 'created_at': '2026-11-24T20:00:00.000000',
    'attachments': [], 'name': 'data', 'description': None,
    'volume_type': '__DEFAULT__', 'snapshot_id': None, 'metadata': {},
    'bootable': 'false', 'links': [],
}


def test_a_volume_without_attachments():
    assert volumes.volume(VOLUME) == {
        'id': 'v1', 'status': 'available', 'size': 2,
        'availabilityZone': 'nova',
        'createdAt': '2026-11-24T20:00:00.000000', 'attachments': [{}],
        'displayName': 'data', 'displayDescription': None,
        'volumeType': '__DEFAULT__', 'snapshotId': None, 'metadata': {}}


def test_the_first_attachment_as_nova_shows_it():
    volume = dict(VOLUME, status='in-use', attachments=[
        {'server_id': 's1', 'device': '/dev/sdb', 'attachment_id': 'a1',
         'volume_id': 'v1', 'id': 'v1', 'host_name': None},
        {'server_id': 's2', 'device': '/dev/sdc', 'attachment_id': 'a2',
         'volume_id': 'v1', 'id': 'v1', 'host_name': None}])
    assert volumes.volume(volume)['attachments'] == [
        {'id': 'v1', 'volumeId': 'v1', 'serverId': 's1',
         'device': '/dev/sdb'}]
    # No device yet: no key, as in Nova.
    volume['attachments'][0]['device'] = None
    assert volumes.volume(volume)['attachments'] == [
        {'id': 'v1', 'volumeId': 'v1', 'serverId': 's1'}]


def test_an_attachment_to_a_host_only_is_no_servers():
    """os-attach with host_name: no server, so not one Nova shows."""
    volume = dict(VOLUME, status='in-use', attachments=[
        {'server_id': None, 'device': '/dev/sdb', 'attachment_id': 'a1',
         'volume_id': 'v1', 'id': 'v1', 'host_name': 'node-1'}])
    assert volumes.volume(volume)['attachments'] == [{}]
    volume['attachments'].append(
        {'server_id': 's2', 'device': '/dev/sdc', 'attachment_id': 'a2',
         'volume_id': 'v1', 'id': 'v1', 'host_name': None})
    assert volumes.volume(volume)['attachments'] == [
        {'id': 'v1', 'volumeId': 'v1', 'serverId': 's2',
         'device': '/dev/sdc'}]


def test_a_snapshot():
    assert snapshots.snapshot({
        'id': 's1', 'volume_id': 'v1', 'status': 'available', 'size': 2,
        'created_at': '2026-11-24T20:00:00.000000', 'name': 'snap',
        'description': 'd', 'metadata': {}}) == {
        'id': 's1', 'volumeId': 'v1', 'status': 'available', 'size': 2,
        'createdAt': '2026-11-24T20:00:00.000000', 'displayName': 'snap',
        'displayDescription': 'd'}
