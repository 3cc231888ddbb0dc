"""Microversions of the compute API, and version discovery.

What each version changes, and which of those changes apply to the
resources tether serves, is in doc/source/compute-api-versions.rst.
"""

from tether.api import microversion
from tether.api import wsgi

MIN_VERSION = '2.1'
MAX_VERSION = '2.90'
UPDATED = '2013-07-23T11:33:21Z'
LEGACY_HEADER = 'X-OpenStack-Nova-API-Version'

SERVICE = microversion.Service('compute', MIN_VERSION, MAX_VERSION,
                               legacy_headers=[LEGACY_HEADER])


def _links(req):
    return [
        {'rel': 'self', 'href': req.application_url + '/v2.1/'},
        {'rel': 'describedby', 'type': 'text/html',
         'href': 'http://docs.openstack.org/'},
    ]


def _version_doc(req):
    return {
        'id': 'v2.1',
        'status': 'CURRENT',
        'version': MAX_VERSION,
        'min_version': MIN_VERSION,
        'updated': UPDATED,
        'links': _links(req),
        'media-types': [{
            'base': 'application/json',
            'type': 'application/vnd.openstack.compute+json;version=2.1',
        }],
    }


def list_versions(req):
    """GET / : the versions of the API (tether serves v2.1 only)."""
    doc = _version_doc(req)
    del doc['media-types']
    doc['links'] = doc['links'][:1]
    return wsgi.json_response({'versions': [doc]})


def show_version(req):
    """GET /v2.1/ : the v2.1 version document."""
    return wsgi.json_response({'version': _version_doc(req)})


ROUTES = [
    ('/', {'GET': list_versions}),
    ('/v2.1', {'GET': show_version}),
    ('/v2.1/', {'GET': show_version}),
]
PUBLIC_PATHS = [path for path, _ in ROUTES]
