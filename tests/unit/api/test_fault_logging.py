"""A 5xx is logged as the caller is told it (the fuzzing job reads these
lines to say which request failed); a 4xx is the caller's and is not."""

import logging

from tether.api import fault
from tether import exception
from tether.volume import exception as volume_exception


def _errors(caplog):
    return [r.getMessage() for r in caplog.records
            if r.name == 'tether.api.fault' and r.levelno >= logging.ERROR]


def test_an_operation_that_failed_is_logged_with_its_message(caplog):
    caplog.set_level(logging.DEBUG, logger='tether.api.fault')
    resp = fault.to_response(volume_exception.BackendOperationFailed(
        reason='connecting volume v1 failed: OSError'))
    assert resp.status_int == 500
    assert _errors(caplog) == [
        'Answering 500: The volume backend failed: connecting volume v1 '
        'failed: OSError']


def test_a_handlers_5xx_is_logged(caplog):
    caplog.set_level(logging.DEBUG, logger='tether.api.fault')
    resp = fault.to_response(fault.HTTPError(500, 'not what it declares'))
    assert resp.status_int == 500
    assert _errors(caplog) == ['Answering 500: not what it declares']


def test_an_unexpected_error_is_logged_with_its_traceback(caplog):
    caplog.set_level(logging.DEBUG, logger='tether.api.fault')
    try:
        raise KeyError('x')
    except KeyError as exc:
        resp = fault.to_response(exc)
    assert resp.status_int == 500
    (record,) = [r for r in caplog.records if r.name == 'tether.api.fault']
    assert record.exc_info and record.exc_info[0] is KeyError


def test_the_callers_errors_are_not_logged(caplog):
    caplog.set_level(logging.DEBUG, logger='tether.api.fault')
    for exc in (exception.NotFound(), fault.HTTPError(400, 'bad'),
                exception.Conflict()):
        assert fault.to_response(exc).status_int < 500
    assert _errors(caplog) == []
