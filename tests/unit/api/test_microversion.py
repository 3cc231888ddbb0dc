"""Microversion negotiation of the volume API (tether.api.microversion)."""

import pytest

from tether.api import fault
from tether.api import microversion
from tether.api.volume import versions

SERVICE = microversion.Service('volume', '3.0', '3.71')


def negotiate(header=None, service=SERVICE):
    environ = {}
    if header is not None:
        environ['HTTP_OPENSTACK_API_VERSION'] = header
    return service.negotiate(environ)


def test_absent_header_is_the_minimum():
    version = negotiate()
    assert (version.major, version.minor) == (3, 0)
    assert str(version.min_version) == '3.0'
    assert str(version.max_version) == '3.71'


@pytest.mark.parametrize('header', ['volume latest', 'volume LATEST',
                                    'volume  latest '])
def test_latest_is_the_maximum(header):
    version = negotiate(header)
    assert (version.major, version.minor) == (3, 71)
    assert SERVICE.header_value(version) == 'volume 3.71'


@pytest.mark.parametrize('header,expected', [
    ('volume 3.0', (3, 0)),
    ('volume 3.45', (3, 45)),
    ('Volume 3.12', (3, 12)),
    ('volume 03.07', (3, 7)),
    ('compute 2.90, volume 3.27', (3, 27)),
    # Another service's version only: as if absent.
    ('compute 2.90', (3, 0)),
])
def test_valid_versions(header, expected):
    version = negotiate(header)
    assert (version.major, version.minor) == expected


@pytest.mark.parametrize('header', ['volume 3.72', 'volume 3.99',
                                    'volume 2.0', 'volume 4.0',
                                    'volume 3.-1'])
def test_out_of_range_is_406(header):
    with pytest.raises(fault.HTTPError) as info:
        negotiate(header)
    assert info.value.status == 406
    assert header.split()[1] in info.value.message
    assert 'Minimum is 3.0 and maximum is 3.71' in info.value.message


@pytest.mark.parametrize('header', ['volume 3.abc', 'volume 3', 'volume 3.',
                                    'volume .5', 'volume 3.1.1',
                                    'volume garbage'])
def test_garbage_is_400(header):
    with pytest.raises(fault.HTTPError) as info:
        negotiate(header)
    assert info.value.status == 400
    assert header.split()[1] in info.value.message


def test_the_volume_api_serves_3_0_to_3_71():
    assert versions.SERVICE.versions[0] == '3.0'
    assert versions.SERVICE.versions[-1] == '3.71'
    assert len(versions.SERVICE.versions) == 72


def test_version_window():
    @microversion.version_window('3.12', '3.40')
    def handler(req):
        pass

    def parse(s):
        return microversion.parse(s)

    assert not microversion.in_window(handler, parse('3.11'))
    assert microversion.in_window(handler, parse('3.12'))
    assert microversion.in_window(handler, parse('3.40'))
    assert not microversion.in_window(handler, parse('3.41'))

    def unbounded(req):
        pass
    assert microversion.in_window(unbounded, parse('3.0'))

    assert microversion.window_text(handler) == \
        'it is served from 3.12 to 3.40'
    assert microversion.window_text(
        microversion.version_window('3.68')(unbounded)) == \
        'it is served from 3.68'


def test_before_is_the_previous_minor():
    assert microversion.before('3.54') == '3.53'
    assert microversion.before('2.10') == '2.9'
    assert microversion.before(versions.ATTACHMENT_MODE) == '3.53'
    with pytest.raises(ValueError):
        microversion.before('3.0')
