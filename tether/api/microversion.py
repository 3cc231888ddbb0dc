"""Microversion negotiation (microversion-parse) and version windows."""

import functools

import microversion_parse

from tether.api import fault

VERSION_KEY = 'tether.microversion'
# Set on a request to Nova's legacy v2 endpoint (/v2): microversion 2.1
# whatever the headers say, none in the response, and properties a
# request body's schema does not know dropped rather than refused.
LEGACY_V2_KEY = 'tether.legacy_v2'


class Service:
    """The versions one API serves."""

    def __init__(self, service_type, min_version, max_version,
                 legacy_headers=None):
        self.service_type = service_type
        self.min = microversion_parse.parse_version_string(min_version)
        self.max = microversion_parse.parse_version_string(max_version)
        self.legacy_headers = legacy_headers or []
        self.versions = ['%d.%d' % (self.min.major, minor)
                         for minor in range(self.min.minor,
                                            self.max.minor + 1)]

    def negotiate(self, environ):
        """The requested version; HTTPError 400 or 406 when unacceptable."""
        headers = microversion_parse.headers_from_wsgi_environ(environ)
        requested = microversion_parse.get_version(
            headers, service_type=self.service_type,
            legacy_headers=self.legacy_headers)
        if requested is None:
            version = self.min
        elif requested.strip().lower() == 'latest':
            version = self.max
        else:
            try:
                version = microversion_parse.parse_version_string(requested)
            except TypeError:
                raise fault.HTTPError(
                    400, 'API version string %s format is invalid; use '
                         'major.minor (for example %s) or "latest".'
                    % (requested, self.max),
                    code=fault.MALFORMED_MICROVERSION)
            if not self.min <= version <= self.max:
                raise fault.HTTPError(
                    406, 'Version %s is not supported by the API. Minimum is '
                         '%s and maximum is %s.'
                    % (requested, self.min, self.max))
        version = microversion_parse.Version(version.major, version.minor)
        version.min_version = self.min
        version.max_version = self.max
        return version

    def header_value(self, version):
        return '%s %s' % (self.service_type, version)

    def response_headers(self, version):
        """The version headers of a response (and the legacy ones)."""
        headers = {'OpenStack-API-Version': self.header_value(version)}
        vary = ['OpenStack-API-Version']
        for name in self.legacy_headers:
            headers[name] = str(version)
            vary.append(name)
        headers['Vary'] = ', '.join(vary)
        return headers


# Views compare the request's version with named ones at every item of a
# page: the few strings there are are parsed once.
@functools.lru_cache(maxsize=256)
def parse(version_string):
    return microversion_parse.parse_version_string(version_string)


def before(version_string):
    """The version just before ``version_string`` (the previous minor).

    The upper end of a window that stops where a named version starts:
    ``version_window(versions.ATTACHMENTS,
    before(versions.ATTACHMENT_MODE))`` serves 3.27 to 3.53.
    """
    version = parse(version_string)
    if version.minor == 0:
        raise ValueError('No microversion comes before %s.' % version_string)
    return '%d.%d' % (version.major, version.minor - 1)


def version_window(min_version, max_version=None):
    """Declare the microversions a handler serves (outside them: 404)."""
    lo = parse(min_version)
    hi = parse(max_version) if max_version else None

    def decorator(fn):
        fn.min_version = lo
        fn.max_version = hi
        return fn
    return decorator


def in_window(fn, version):
    lo = getattr(fn, 'min_version', None)
    hi = getattr(fn, 'max_version', None)
    return (lo is None or version >= lo) and (hi is None or version <= hi)


def window_text(fn):
    """The microversions a handler serves, in words."""
    lo = getattr(fn, 'min_version', None)
    hi = getattr(fn, 'max_version', None)
    if lo is not None and hi is not None:
        return 'it is served from %s to %s' % (lo, hi)
    if lo is not None:
        return 'it is served from %s' % (lo,)
    if hi is not None:
        return 'it is served up to %s' % (hi,)
    return 'it is served at every version'


def get(req):
    return req.environ[VERSION_KEY]


def legacy_v2(req):
    """Whether ``req`` came to the legacy v2 endpoint (/v2)."""
    return req.environ.get(LEGACY_V2_KEY, False)


def at_least(req, version_string):
    return req.environ[VERSION_KEY] >= parse(version_string)
