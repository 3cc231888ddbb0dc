"""The guard of a raw image written into a volume as it comes."""

import pytest

from tether.volume import exception
from tether.volume.ops import image_copy

MiB = 1024 ** 2


def test_data_that_fits_passes_untouched():
    chunks = [b'a' * MiB, b'b' * MiB]
    assert list(image_copy._within(iter(chunks), 2 * MiB, 'img', 1)) == \
        chunks


def test_data_longer_than_the_volume_stops_before_the_byte_past_it():
    """The image API recorded a size that fits, the data has more (an
    image store that serves more than it recorded): nothing past the
    volume's end is handed on."""
    given = []
    with pytest.raises(exception.ImageUnacceptable,
                       match='its data is longer than the 1GB volume'):
        for chunk in image_copy._within(
                iter([b'a' * MiB, b'b' * MiB, b'c']), 2 * MiB, 'img', 1):
            given.append(chunk)
    assert sum(map(len, given)) == 2 * MiB
