"""The lines of a console output, as the compute host cuts them."""

import pytest

from tether.compute.ops import console_output


@pytest.mark.parametrize('count,expected', [
    (None, b'a\nb\nc\n'),
    (0, b''),
    (1, b''),                  # the piece after the last newline
    (2, b'c\n'),
    (3, b'b\nc\n'),
    (4, b'a\nb\nc\n'),
    (1000, b'a\nb\nc\n'),
])
def test_last_lines_counts_as_nova_and_tempest_do(count, expected):
    assert console_output.last_lines(b'a\nb\nc\n', count) == expected


def test_last_lines_of_a_log_without_a_final_newline():
    assert console_output.last_lines(b'a\nb\nc', 2) == b'b\nc'
    assert console_output.last_lines(b'', 5) == b''
