"""What a user message says (Cinder's ids and texts), and the QoS keys a
connection carries (Cinder's per-GiB keys)."""

from tether.volume import exception
from tether.volume import message_field
from tether.volume import qos


def test_a_message_is_cinders_text_of_its_ids():
    assert message_field.event_id('VOLUME', '001', '003') == \
        'VOLUME_VOLUME_001_003'
    assert message_field.user_message('001', '003') == (
        'schedule allocate volume:Could not find any available weighted '
        'backend.')
    assert message_field.user_message('999', '999') == (
        'unknown action:An unknown error occurred.')


def test_the_detail_of_an_exception():
    class ImageTooBig(Exception):
        pass

    class Bigger(ImageTooBig):
        pass

    D = message_field.Detail
    assert message_field.detail_of(Bigger()) is D.NOT_ENOUGH_SPACE_FOR_IMAGE
    assert message_field.detail_of(exception.VolumeNotFound(volume_id='x'),
                                   D.ATTACH_ERROR) is D.ATTACH_ERROR
    assert message_field.detail_of() is D.UNKNOWN_ERROR


def test_per_gb_keys_are_resolved_for_the_size():
    specs = {'read_iops_sec_per_gb': '100', 'write_iops_sec_per_gb': '10',
             'write_iops_sec_per_gb_min': '50',
             'total_bytes_sec_per_gb': '1000', 'total_bytes_sec_max': '2500',
             'total_iops_sec': '7', 'other': 'x'}
    assert qos.resolve(specs, 3) == {
        'read_iops_sec': '300', 'write_iops_sec': '50',
        'total_bytes_sec': '2500', 'total_iops_sec': '7', 'other': 'x'}
    # A _max without a per-GiB key is a key of its own (libvirt's).
    assert qos.resolve({'read_iops_sec_max': '9'}, 3) == {
        'read_iops_sec_max': '9'}
