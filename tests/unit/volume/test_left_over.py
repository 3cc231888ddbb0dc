"""tether.volume.ops.left_over.each: one row's failure is logged and the
others are taken up; the counts; the stop."""

import logging
import types

from tether.volume.ops import left_over


def _row(row_id, status='deleting'):
    return types.SimpleNamespace(id=row_id, status=status)


def test_a_row_that_raises_is_logged_and_the_others_are_taken_up(caplog):
    seen = []

    def take_up(row):
        if row.id == 'b':
            raise TypeError('a bug')
        seen.append(row.id)
        return None if row.id == 'a' else False

    tally = left_over.each('volume', [_row('a'), _row('b'), _row('c')],
                           take_up)
    assert seen == ['a', 'c']
    # c was left to another flow: found, neither taken up nor failed.
    assert tally == left_over.Tally(found=3, taken_up=1, failed=1)
    [record] = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert record.getMessage() == (
        'Could not take up volume b, left deleting: it stays deleting (see '
        '"Reconciliation" in the docs)')
    assert record.exc_info[0] is TypeError


def test_an_attachment_is_named_by_its_attach_status(caplog):
    row = types.SimpleNamespace(id='x', attach_status='attaching')

    def take_up(row):
        raise RuntimeError('database is locked')

    assert left_over.each('attachment', [row], take_up) == (1, 0, 1)
    assert 'attachment x, left attaching: it stays attaching' in caplog.text


def test_the_pass_ends_when_the_service_stops():
    seen = []
    stopping = []

    def take_up(row):
        seen.append(row.id)
        stopping.append(True)

    tally = left_over.each('snapshot', [_row('a'), _row('b')], take_up,
                           stopping=lambda: bool(stopping))
    assert seen == ['a']
    assert tally == (2, 1, 0)


def test_the_log_line_of_a_pass(caplog):
    caplog.set_level(logging.INFO)
    left_over.log('h@b', 'volume', left_over.Tally(0, 0, 0))
    assert caplog.text == ''
    left_over.log('h@b', 'volume', left_over.Tally(3, 3, 0))
    assert 'h@b: reconciled 3 volumes left mid-operation' in caplog.text
    left_over.log('h@b', 'volume', left_over.Tally(3, 1, 1))
    assert ('h@b: of 3 volumes left mid-operation, 1 were taken up and 1 '
            'could not be') in caplog.text
