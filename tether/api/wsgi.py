"""The WSGI framework: routing and dispatch, and the middlewares that
api-paste.ini puts in order (their paste factories are here and in auth).
"""

import datetime

from oslo_log import log as logging
from oslo_middleware import request_id
from oslo_middleware import sizelimit
from oslo_serialization import jsonutils
import routes
import webob
import webob.dec

from tether.api import auth
from tether.api import fault
from tether.api import microversion

LOG = logging.getLogger(__name__)


class Request(webob.Request):
    @property
    def context(self):
        return self.environ[auth.CONTEXT_KEY]

    @property
    def version(self):
        return self.environ[microversion.VERSION_KEY]


def isotime(value):
    if value is None:
        return None
    if isinstance(value, datetime.datetime):
        return isoformat(value)
    return value


def isoformat(value):
    """``value.strftime('%Y-%m-%dT%H:%M:%S.%f')`` (whatever its tzinfo),
    in two fifths less CPU (a page of 100 volumes or servers formats
    hundreds): isoformat's first 26 characters. (glibc's ``%Y`` does not
    pad a year before 1000, isoformat does.)"""
    if value.year < 1000:
        return value.strftime('%Y-%m-%dT%H:%M:%S.%f')
    return value.isoformat(timespec='microseconds')[:26]


def isoformat_seconds(value):
    """``value.strftime('%Y-%m-%dT%H:%M:%SZ')``, as :func:`isoformat`."""
    if value.year < 1000:
        return value.strftime('%Y-%m-%dT%H:%M:%SZ')
    return value.isoformat(timespec='seconds')[:19] + 'Z'


def json_response(body, status=200, headers=None):
    resp = webob.Response(status=status, content_type='application/json',
                          charset='utf-8')
    resp.body = jsonutils.dump_as_bytes(body, default=isotime)
    for key, value in (headers or {}).items():
        resp.headers[key] = value
    return resp


def empty_response(status):
    resp = webob.Response(status=status)
    resp.content_type = None
    return resp


class Router:
    """Match a route, choose its handler by method and microversion, call it.

    ``declarations`` is a list of ``(path, {METHOD: handler})``; a handler
    outside its microversion window is as good as absent (404), a method
    that is not declared is 405. A request under ``legacy_prefix`` (the
    compute API's ``/v2``) is served at the minimum microversion whatever
    it asks for, its response without version headers, its body's
    unknown properties dropped (tether.api.validation).
    """

    def __init__(self, service, declarations, legacy_prefix=None):
        self.service = service
        self.legacy_prefix = legacy_prefix
        self.mapper = routes.Mapper()
        self.declarations = [methods for _path, methods in declarations]
        for index, (path, _methods) in enumerate(declarations):
            self.mapper.connect(path, _index=str(index))

    def match(self, path):
        match = self.mapper.match(path)
        if match is None:
            return None, {}
        methods = self.declarations[int(match.pop('_index'))]
        return methods, match

    @webob.dec.wsgify(RequestClass=Request)
    def __call__(self, req):
        try:
            path = req.path_info
        except UnicodeDecodeError:
            return fault.error_response(
                400, 'The URL path is not valid UTF-8.',
                code=fault.MALFORMED_PATH)
        methods, urlvars = self.match(path)
        if methods is None:
            return fault.error_response(
                404, 'The resource could not be found.',
                code=fault.NO_ROUTE)
        legacy = self._legacy(path)
        if legacy:
            version = self.service.negotiate({})
            req.environ[microversion.LEGACY_V2_KEY] = True
        else:
            version = self.service.negotiate(req.environ)
        req.environ[microversion.VERSION_KEY] = version
        handler = methods.get(req.method)
        if handler is None:
            resp = fault.error_response(
                405, 'Method %s is not allowed on %s.' % (req.method,
                                                          req.path_info))
            resp.headers['Allow'] = ', '.join(sorted(methods))
            return resp
        req.urlvars = urlvars
        project_id = urlvars.get('project_id')
        context = req.environ.get(auth.CONTEXT_KEY)
        if not microversion.in_window(handler, version):
            resp = fault.error_response(
                404, 'The resource could not be found: %s %s is not served '
                     'at microversion %s (%s).' % (
                         req.method, req.path_info, version,
                         microversion.window_text(handler)),
                code=fault.NO_ROUTE)
        elif project_id and context and project_id != context.project_id:
            # As Cinder and Nova do: never act on one project under the
            # URL of another.
            resp = fault.error_response(
                400, "Malformed request URL: the URL's project_id %s does "
                     "not match the project of the token, %s."
                     % (project_id, context.project_id),
                code=fault.PROJECT_MISMATCH)
        else:
            try:
                resp = handler(req)
            except Exception as exc:  # noqa: BLE001 - mapped by one table
                resp = fault.to_response(exc)
        if not legacy:
            for name, value in self.service.response_headers(
                    version).items():
                resp.headers[name] = value
        return resp

    def _legacy(self, path):
        prefix = self.legacy_prefix
        return bool(prefix) and (path == prefix
                                 or path.startswith(prefix + '/'))


class PublicPaths:
    """Serve version discovery without authentication, the rest with it."""

    def __init__(self, public_app, public_paths, authenticated_app):
        self.public_app = public_app
        self.public_paths = set(public_paths)
        self.authenticated_app = authenticated_app

    def __call__(self, environ, start_response):
        path = environ.get('PATH_INFO', '') or '/'
        if path in self.public_paths:
            return self.public_app(environ, start_response)
        return self.authenticated_app(environ, start_response)


class SizeLimit(sizelimit.RequestBodySizeLimiter):
    """oslo.middleware's bound on request bodies ([oslo_middleware]
    max_request_body_size), whose 413 is a fault as every other error
    (oslo.middleware's own is an HTML page)."""

    @webob.dec.wsgify
    def __call__(self, req):
        try:
            return super().__call__(req)
        except webob.exc.HTTPRequestEntityTooLarge:
            return fault.error_response(
                413, 'Request is too large: the body is longer than '
                     '[oslo_middleware] max_request_body_size, %d bytes.'
                % self._conf_get('max_request_body_size'),
                code=fault.BODY_TOO_LARGE)


class _RequestId(request_id.RequestId):
    """oslo.middleware's request id, also under a service's old header."""

    def __init__(self, application, compat_headers=()):
        super().__init__(application)
        self.compat_headers = list(compat_headers)


def request_id_factory(global_conf, compat_headers='', **local_conf):
    """paste filter: oslo.middleware's request id.

    ``compat_headers``: more response headers, separated by spaces or
    commas, that carry the request id (Nova also answers with
    ``X-Compute-Request-ID``).
    """
    headers = compat_headers.replace(',', ' ').split()

    def _filter(app):
        return _RequestId(app, headers)
    return _filter


def faultwrap_factory(global_conf, **local_conf):
    """paste filter: an exception that escapes becomes a JSON fault."""
    return fault.FaultWrapper


def versions_filter(service_versions, more_routes=()):
    """A paste filter factory that serves version discovery without auth.

    The paths of ``service_versions.ROUTES`` (``/``, ``/v3``, ``/v3/``)
    and of ``more_routes`` (``/openapi.json``) are answered here; every
    other request goes on down the pipeline.
    """
    routes = list(service_versions.ROUTES) + list(more_routes)
    paths = list(service_versions.PUBLIC_PATHS) + [p for p, _ in more_routes]

    def factory(global_conf, **local_conf):
        public = Router(service_versions.SERVICE, routes)

        def _filter(app):
            return PublicPaths(public, paths, app)
        return _filter
    return factory
