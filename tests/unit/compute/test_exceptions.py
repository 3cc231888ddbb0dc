"""The compute service's exceptions: what an older tether-compute sends
over RPC, and what the compute API answers for the errors of the volume
and share APIs."""

import oslo_messaging as messaging
import pytest

from tether.api import fault
from tether.compute import exception
from tether.compute import share_exception
from tether.compute import share_client
from tether.compute import volume_client


def test_an_older_hosts_exception_is_rebuilt_by_its_class_name():
    # An older tether-compute raised its exceptions from tether.exception,
    # which has no VirtError now: oslo.messaging hands a RemoteError over.
    remote = messaging.RemoteError('VirtError', 'Hypervisor error: boom')
    rebuilt = exception.from_remote(remote)
    assert type(rebuilt) is exception.VirtError
    assert str(rebuilt) == 'Hypervisor error: boom'


@pytest.mark.parametrize('exc_type', ['KeyError', 'Periodic', 'CONF'])
def test_anything_else_stays_a_remote_error(exc_type):
    remote = messaging.RemoteError(exc_type, 'x')
    assert exception.from_remote(remote) is remote


class _HTTPError(Exception):
    def __init__(self, status_code):
        super().__init__('refused')
        self.status_code = status_code
        self.details = 'the details'


@pytest.mark.parametrize('status,kind,answer', [
    (403, exception.VolumeAPIForbidden, 403),
    (400, exception.VolumeAPIRefused, 400),
    (409, exception.VolumeAPIRefused, 400),
    (500, exception.VolumeAPIUnavailable, 503),
    (None, exception.VolumeAPIUnavailable, 503),
])
def test_volume_api_errors_and_what_the_compute_api_answers(status, kind,
                                                            answer):
    error = volume_client._translate(_HTTPError(status), 'vol-1')
    assert type(error) is kind
    assert isinstance(error, exception.VolumeAPIError)
    assert error.status == status
    assert fault.status_for(error) == answer
    assert str(error) == 'The volume API failed: vol-1: the details'


def test_a_volume_the_volume_api_does_not_know():
    error = volume_client._translate(_HTTPError(404), 'vol-1')
    assert type(error) is exception.VolumeNotFound
    assert fault.status_for(error) == 404


# A unit test: a real Manila answers 403 and 5xx only to a caller Keystone
# knows or when it breaks, which the functional deployment (noauth, every
# caller an administrator) cannot show.
@pytest.mark.parametrize('status,kind,answer', [
    (403, share_exception.ShareAPIForbidden, 403),
    (400, share_exception.ShareAPIRefused, 400),
    (409, share_exception.ShareAPIRefused, 400),
    (500, share_exception.ShareAPIUnavailable, 503),
    (None, share_exception.ShareAPIUnavailable, 503),
])
def test_share_api_errors_and_what_the_compute_api_answers(status, kind,
                                                           answer):
    error = share_client._translate(_HTTPError(status), 'share-1')
    assert type(error) is kind
    assert isinstance(error, share_exception.ShareAPIError)
    assert error.status == status
    assert fault.status_for(error) == answer
    assert str(error) == 'The share API failed: share share-1: the details'


def test_a_share_the_share_api_does_not_know():
    error = share_client._translate(_HTTPError(404), 'share-1')
    assert type(error) is share_exception.ShareNotFound
    assert fault.status_for(error) == 404
    assert str(error) == 'Share share-1 could not be found.'
    assert error.kwargs['reason'] == 'share share-1: the details'
