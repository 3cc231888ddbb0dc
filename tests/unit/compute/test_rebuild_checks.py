"""What the rebuild of a volume-backed server needs of the volume API.

tether's own volume API serves 3.71; a Cinder before Yoga (3.68) is the
case here, and it is outside tether: the client is a stand-in that only
answers version discovery as such a Cinder would.
"""

import pytest

from tether.compute.api import rebuild
from tether.compute import exception


class _DiscoveredVolumeAPI:
    def __init__(self, max_version):
        self._max = max_version

    def max_version(self):
        return self._max


@pytest.mark.parametrize('found', ['3.68', '3.71', '3.100'])
def test_a_volume_api_that_reimages(found):
    rebuild.check_volume_api_reimages(_DiscoveredVolumeAPI(found))


@pytest.mark.parametrize('found', ['3.67', '3.9', None])
def test_a_volume_api_too_old_to_reimage(found):
    with pytest.raises(exception.VolumeAPIVersionNotAvailable) as raised:
        rebuild.check_volume_api_reimages(_DiscoveredVolumeAPI(found))
    assert str(raised.value) == (
        'Re-imaging the root volume of a server needs volume API '
        'microversion 3.68; the volume API serves up to %s.' % found)
    assert isinstance(raised.value, exception.Conflict)
