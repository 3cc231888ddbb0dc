"""Errors as HTTP faults, shaped as Cinder and Nova shape them, each with
a stable error code.

A fault body is ``{"<name>": {"code": <status>, "message": "...",
"error_code": "<code>"}}``: the name and the numeric ``code`` are Cinder's
and Nova's; ``error_code`` names the problem for programs, and does not
change when the message's wording does (doc/source/errors.rst lists
them). A domain exception brings its own (``error_code`` of its class);
an HTTPError of the framework or a handler names one, or gets the one of
its status.
"""

from oslo_log import log as logging
from oslo_serialization import jsonutils
import webob
import webob.exc

from tether import exception

LOG = logging.getLogger(__name__)

# The key that wraps an error body, per status (Cinder and Nova agree).
FAULT_NAMES = {
    400: 'badRequest', 401: 'unauthorized', 403: 'forbidden',
    404: 'itemNotFound', 405: 'badMethod', 406: 'notAcceptable',
    409: 'conflictingRequest', 413: 'overLimit', 415: 'badMediaType',
    501: 'notImplemented', 503: 'serviceUnavailable',
}

# The one table from the kinds of domain exception to HTTP status.
STATUS_BY_EXCEPTION = [
    (exception.Forbidden, 403),
    (exception.NotFound, 404),
    (exception.Invalid, 400),
    (exception.Conflict, 409),
    (exception.QuotaExceeded, 413),
    # The state the failure left is recorded; the message says what it is.
    (exception.OperationFailed, 500),
    (exception.ServiceUnavailable, 503),
]

# The error codes of the framework's own errors.
MALFORMED_PATH = 'api.path.malformed'
NO_ROUTE = 'api.route.not_found'
METHOD_NOT_ALLOWED = 'api.route.method_not_allowed'
PROJECT_MISMATCH = 'api.project.mismatch'
MALFORMED_MICROVERSION = 'api.microversion.malformed'
UNSUPPORTED_MICROVERSION = 'api.microversion.unsupported'
MALFORMED_BODY = 'api.body.malformed'
UNSUPPORTED_MEDIA_TYPE = 'api.body.media_type'
MALFORMED_QUERY = 'api.query.malformed'
BODY_TOO_LARGE = 'api.body.too_large'
# HTTP the built-in server cannot read (tether.cmd.http_errors).
MALFORMED_HTTP = 'api.http.malformed'
VALIDATION_FAILED = 'api.validation.failed'
AUTH_REQUIRED = 'api.auth.required'
INTERNAL_ERROR = 'api.internal_error'
# The code of an HTTPError that names none, by status: a handler's 400 is
# an input it refuses, its 404 a thing it cannot find, and so on.
CODE_BY_STATUS = {
    400: 'api.invalid_request', 401: AUTH_REQUIRED, 403: 'api.forbidden',
    404: 'api.not_found', 405: METHOD_NOT_ALLOWED,
    406: UNSUPPORTED_MICROVERSION, 409: 'api.conflict', 413: 'api.too_large',
    415: UNSUPPORTED_MEDIA_TYPE, 500: INTERNAL_ERROR,
    501: 'api.not_implemented', 503: 'api.service_unavailable',
}


class HTTPError(Exception):
    """An HTTP error with a message (and an error code), raised by the
    framework and handlers."""

    def __init__(self, status, message, headers=None, code=None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}
        self.code = code or CODE_BY_STATUS.get(status, INTERNAL_ERROR)


def status_for(exc):
    for exc_type, status in STATUS_BY_EXCEPTION:
        if isinstance(exc, exc_type):
            return status
    return None


def error_response(status, message, headers=None, code=None):
    name = FAULT_NAMES.get(status, 'computeFault')
    body = {name: {'code': status, 'message': message,
                   'error_code': code or CODE_BY_STATUS.get(
                       status, INTERNAL_ERROR)}}
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
        if exc.status >= 500:
            LOG.error('Answering %s: %s', exc.status, exc.message)
        return error_response(exc.status, exc.message, exc.headers,
                              exc.code)
    if isinstance(exc, webob.exc.HTTPException):
        return error_response(exc.code, exc.explanation or exc.title)
    status = status_for(exc)
    if status is not None:
        if status == 500:
            # The operation's own log says how it failed; this says
            # that a caller was told.
            LOG.error('Answering 500: %s', exc)
        return error_response(status, str(exc), code=exc.error_code)
    LOG.exception('Unexpected error handling a request')
    return error_response(
        500, 'The server has either erred or is incapable of performing '
             'the requested operation.', code=INTERNAL_ERROR)


class FaultWrapper:
    """Outermost middleware: nothing leaves as an HTML page or a traceback."""

    def __init__(self, application):
        self.application = application

    def __call__(self, environ, start_response):
        try:
            return self.application(environ, start_response)
        except Exception as exc:  # noqa: BLE001 - the last line of defence
            return to_response(exc)(environ, start_response)
