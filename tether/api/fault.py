"""Domain exceptions to HTTP faults, shaped as Cinder and Nova shape them."""

import webob
import webob.exc
from oslo_log import log as logging
from oslo_serialization import jsonutils

from tether import exception

LOG = logging.getLogger(__name__)

# The key that wraps an error body, per status (Cinder and Nova agree).
FAULT_NAMES = {
    400: 'badRequest', 401: 'unauthorized', 403: 'forbidden',
    404: 'itemNotFound', 405: 'badMethod', 406: 'notAcceptable',
    409: 'conflictingRequest', 413: 'overLimit', 415: 'badMediaType',
    501: 'notImplemented', 503: 'serviceUnavailable',
}

# The one table from domain exception to HTTP status (most specific first).
STATUS_BY_EXCEPTION = [
    (exception.PolicyNotAuthorized, 403),
    (exception.Forbidden, 403),
    (exception.NotFound, 404),
    (exception.Invalid, 400),
    (exception.Conflict, 409),
    (exception.QuotaError, 413),
    # The state the failure left is recorded; the message says what it is.
    (exception.BackendOperationFailed, 500),
]


class HTTPError(Exception):
    """An HTTP error with a message, raised by the framework and handlers."""

    def __init__(self, status, message, headers=None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}


def status_for(exc):
    # An exception may know its status better than its class does.
    status = getattr(exc, 'http_status', None)
    if status is not None:
        return status
    for exc_type, status in STATUS_BY_EXCEPTION:
        if isinstance(exc, exc_type):
            return status
    return None


def error_response(status, message, headers=None):
    name = FAULT_NAMES.get(status, 'computeFault')
    body = {name: {'code': status, 'message': message}}
    if status == 413:
        body[name]['retryAfter'] = '0'
        headers = dict(headers or {}, **{'Retry-After': '0'})
    resp = webob.Response(status=status, content_type='application/json',
                          charset='utf-8')
    resp.body = jsonutils.dump_as_bytes(body)
    for key, value in (headers or {}).items():
        resp.headers[key] = value
    return resp


def to_response(exc):
    """The response for any exception a handler raised."""
    if isinstance(exc, HTTPError):
        return error_response(exc.status, exc.message, exc.headers)
    if isinstance(exc, webob.exc.HTTPException):
        return error_response(exc.code, exc.explanation or exc.title)
    status = status_for(exc)
    if status is not None:
        return error_response(status, str(exc))
    LOG.exception('Unexpected error handling a request')
    return error_response(
        500, 'The server has either erred or is incapable of performing '
             'the requested operation.')


class FaultWrapper:
    """Outermost middleware: nothing leaves as an HTML page or a traceback."""

    def __init__(self, application):
        self.application = application

    def __call__(self, environ, start_response):
        try:
            return self.application(environ, start_response)
        except Exception as exc:  # noqa: BLE001 - the last line of defence
            return to_response(exc)(environ, start_response)
