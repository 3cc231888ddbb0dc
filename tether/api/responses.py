"""The responses of both APIs, declared beside their handlers.

Each handler states, per microversion window, the status it answers
with and the JSON schema of its body (``@responses.declare``; ``None``
for a response without one). The OpenAPI description publishes these
(tether.api.openapi), and under ``[api] response_validation`` every
successful answer is checked against the declaration of its request's
microversion: a status or a body that the declaration does not allow is
a 500 that says how (``error``, what tether's tests and CI run with) or
a warning in the log (``warn``).
"""

import functools

import jsonschema
from oslo_config import cfg
from oslo_log import log as logging
from oslo_serialization import jsonutils

from tether.api import fault
from tether.api import microversion
from tether.api import validation

CONF = cfg.CONF
LOG = logging.getLogger(__name__)

ATTR = 'response_schemas'
RESPONSE_INVALID = 'api.response.invalid'


class Declaration:
    """What a handler answers in one microversion window."""

    def __init__(self, schema, status):
        self.schema = schema
        self.statuses = (status,) if isinstance(status, int) else \
            tuple(status)
        self.validator = None
        if schema is not None:
            validation.Draft7.check_schema(schema)
            self.validator = validation.Draft7(
                schema, format_checker=validation.FORMATS)

    def problem(self, resp):
        """What is wrong with ``resp`` (a webob.Response), or None."""
        if resp.status_int not in self.statuses:
            return 'its status is %d, not %s' % (
                resp.status_int, ' or '.join(map(str, self.statuses)))
        if self.validator is None:
            if resp.body:
                return 'it has a body, and none is declared'
            return None
        if not resp.body:
            return 'it has no body, and one is declared'
        try:
            body = jsonutils.loads(resp.body)
        except ValueError as exc:
            return 'its body is no JSON: %s' % exc
        error = jsonschema.exceptions.best_match(
            self.validator.iter_errors(body))
        if error is None:
            return None
        where = '/'.join(str(p) for p in error.absolute_path) or 'the body'
        message = error.message
        if len(message) > 2 * validation.MAX_ECHOED:
            message = message[:2 * validation.MAX_ECHOED] + '...'
        return 'at %s: %s' % (where, message)


def declarations(handler):
    """The ``(lo, hi, Declaration)`` of ``handler``, [] if it has none."""
    return getattr(handler, ATTR, [])


def declare(schema, status=200, min_version=None, max_version=None):
    """Declare what a handler answers from ``min_version`` to
    ``max_version`` (both optional): ``status`` (one or a tuple) and a
    body of ``schema`` (None: no body). Stack one per window; the
    windows of one handler must not overlap."""
    lo = microversion.parse(min_version) if min_version else None
    hi = microversion.parse(max_version) if max_version else None
    declaration = Declaration(schema, status)

    def decorator(fn):
        if ATTR in getattr(fn, '__dict__', {}):
            target = fn
        else:
            @functools.wraps(fn)
            def target(req, *args, **kwargs):
                resp = fn(req, *args, **kwargs)
                if CONF.api.response_validation != 'ignore':
                    _check(target, req, resp)
                return resp
            setattr(target, ATTR, [])
        getattr(target, ATTR).append((lo, hi, declaration))
        return target
    return decorator


def _check(handler, req, resp):
    if not 200 <= resp.status_int < 300:
        return   # an error the handler answers itself: not its shape
    version = microversion.get(req)
    declared = validation.choose(declarations(handler), version)
    if declared is None:
        problem = 'no response is declared at this microversion'
    else:
        problem = declared.problem(resp)
    if problem is None:
        return
    message = ('The response of %s %s at microversion %s is not what the '
               'API declares: %s.' % (req.method, req.path_info, version,
                                      problem))
    if CONF.api.response_validation == 'warn':
        LOG.warning('%s', message)
        return
    raise fault.HTTPError(500, message, code=RESPONSE_INVALID)
