"""The sizes of a waiting extend: as the volume service sent it with the
event (compute RPC 1.11), and as the compute API reads the header that
carries it (pure logic; the flows are in tests/functional/compute/)."""

import types

import pytest

from tether.api.compute.handlers import server_external_events as handler
from tether.compute import exception
from tether.compute.ops import volume_attachments

VOLUME_ID = '0c2bd1a9-2f87-4a57-a0b3-69a0fbc2a1f3'


@pytest.mark.parametrize('sent', [2, 4096])
def test_a_sent_size_is_taken(sent):
    assert volume_attachments._sent_size(VOLUME_ID, sent) == sent


@pytest.mark.parametrize('sent', [0, -1, True, '2', 2.0, None])
def test_an_unusable_sent_size_fails_the_extend(sent):
    with pytest.raises(exception.ExtendFailed, match='not usable'):
        volume_attachments._sent_size(VOLUME_ID, sent)


def _req(value, service=True):
    headers = {} if value is None else {handler.EXTEND_SIZE_HEADER: value}
    return types.SimpleNamespace(
        headers=headers, context=types.SimpleNamespace(is_service=service))


@pytest.mark.parametrize('value,sizes', [
    (None, {}),
    ('%s=2' % VOLUME_ID, {VOLUME_ID: 2}),
    (' a=2 , b = 30 ', {'a': 2, 'b': 30}),
    # Anything unreadable: the whole header is ignored.
    ('a=2,b', {}),
    ('a=0', {}),
    ('a=-1', {}),
    ('a=2.5', {}),
    ('a=\u00b2', {}),
    ('=2', {}),
    ('a=9999999999', {}),
    ('', {}),
])
def test_the_header_from_a_service_caller(value, sizes):
    assert handler._extend_sizes(_req(value)) == sizes


def test_the_header_from_another_caller_is_ignored():
    assert handler._extend_sizes(
        _req('%s=2' % VOLUME_ID, service=False)) == {}
