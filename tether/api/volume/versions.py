"""Microversions of the volume API, and version discovery.

The history of what each version changes is in
doc/source/volume-api-versions.rst; the lines below name what tether serves.

* 3.0   - Block Storage API v3.
* 3.12  - GET /volumes/summary.
* 3.13  - group_id in volume responses.
* 3.21  - provider_id in volume responses (admins).
* 3.27  - the attachments API: /attachments (create, update, show, list,
          delete).
* 3.36  - metadata in the volume summary.
* 3.42  - os-extend of in-use volumes (tether: refused with a clear 400
          until online extend lands).
* 3.44  - POST /attachments/{id}/action os-complete.
* 3.45  - with_count on volume lists.
* 3.48  - service_uuid and shared_targets in volume responses.
* 3.53  - strict schema for volume create and update (tether: strict at
          every version).
* 3.54  - mode (rw or ro) in the attachment create body.
* 3.61  - cluster_name in volume responses (admins).
* 3.63  - volume_type_id in volume responses.
* 3.65  - consumes_quota in volume responses.
* 3.67  - project_id optional in URLs (tether accepts both at every version).
* 3.71  - the latest version.
"""

from tether.api import microversion
from tether.api import wsgi

MIN_VERSION = '3.0'
MAX_VERSION = '3.71'
UPDATED = '2024-02-28T00:00:00Z'

SERVICE = microversion.Service('volume', MIN_VERSION, MAX_VERSION)


def _version_doc(req):
    return {
        'id': 'v3.0',
        'status': 'CURRENT',
        'version': MAX_VERSION,
        'min_version': MIN_VERSION,
        'updated': UPDATED,
        'links': [
            {'rel': 'describedby', 'type': 'text/html',
             'href': 'https://docs.openstack.org/'},
            {'rel': 'self', 'href': req.application_url + '/v3/'},
        ],
        'media-types': [{
            'base': 'application/json',
            'type': 'application/vnd.openstack.volume+json;version=3',
        }],
    }


def list_versions(req):
    """GET / : every major version, 300 Multiple Choices like Cinder."""
    return wsgi.json_response({'versions': [_version_doc(req)]}, status=300)


def show_version(req):
    """GET /v3/ : the v3 version document."""
    return wsgi.json_response({'versions': [_version_doc(req)]})


ROUTES = [
    ('/', {'GET': list_versions}),
    ('/v3', {'GET': show_version}),
    ('/v3/', {'GET': show_version}),
]
PUBLIC_PATHS = [path for path, _ in ROUTES]
