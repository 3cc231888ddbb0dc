"""Microversions of the volume API, and version discovery.

Each constant below is a microversion that changes what tether serves,
named for what it adds, with one line of comment; handlers, schemas and
views name versions by these constants, never by number. They are the
one list of the versions tether applies; what each version changes, and
how tether applies it, is its row in doc/source/volume-api-versions.rst
(tests/unit/api/test_versions.py fails on a constant without a row).
"""

from tether.api import microversion
from tether.api import wsgi

BASE = '3.0'                  # Block Storage API v3.
UPLOAD_IMAGE_PARAMS = '3.1'   # visibility, protected in an image upload.
MESSAGES = '3.3'              # user messages (/messages).
MESSAGES_PAGINATION = '3.5'   # paging, sort and filters of /messages.
SERVICE_CLUSTER = '3.7'       # cluster (null) in service responses.
BACKUP_UPDATE = '3.9'         # PUT /backups/{id} (name, description).
GROUP_TYPES = '3.11'          # /group_types and their group specs.
SUMMARY = '3.12'              # GET /volumes/summary.
GROUP_ID = '3.13'             # /groups; group_id of volumes.
GROUP_SNAPSHOT_ID = '3.14'    # /group_snapshots, group create-from-src.
BACKUP_PROJECT = '3.18'       # os-backup-project-attr:project_id (admins).
GROUP_SNAPSHOT_RESET = '3.19'  # group snapshot reset_status (admins).
GROUP_RESET = '3.20'          # group reset_status (admins).
PROVIDER_ID = '3.21'          # provider_id in volume responses (admins).
VOLUME_DELETE_FORCE = '3.23'  # DELETE /volumes/{id}?force=true (admins).
GROUP_VOLUMES = '3.25'        # volumes of a group shown (list_volume).
ATTACHMENTS = '3.27'          # the attachments API (/attachments).
POOL_FILTER = '3.28'          # name filter of scheduler-stats/get_pools.
GROUP_SNAPSHOT_PAGES = '3.29'  # filters, sort, pages of group snapshots.
POOL_TYPE_FILTER = '3.35'     # volume_type filter of get_pools.
SUMMARY_METADATA = '3.36'     # metadata in the volume summary.
BACKUP_SORT_NAME = '3.37'     # backup lists sorted by name.
GROUP_REPLICATION = '3.38'    # replication_status of groups.
LIMITS_PROJECT_ID = '3.39'    # admins read another project's /limits.
VOLUME_REVERT = '3.40'        # revert: a volume to its latest snapshot.
RESOURCE_FILTERS = '3.33'     # GET /resource_filters.
SNAPSHOT_USER_ID = '3.41'     # user_id in snapshot responses.
EXTEND_ATTACHED = '3.42'      # os-extend of in-use volumes.
BACKUP_METADATA = '3.43'      # metadata of backups.
ATTACHMENT_COMPLETE = '3.44'  # POST /attachments/{id}/action os-complete.
WITH_COUNT = '3.45'           # with_count on volume lists.
VOLUME_FROM_BACKUP = '3.47'   # backup_id in a volume create.
SHARED_TARGETS = '3.48'       # service_uuid, shared_targets in volumes.
BACKEND_STATE = '3.49'        # backend_state of volume services.
BACKUP_AZ = '3.51'            # availability_zone of a backup create.
ATTACHMENT_MODE = '3.54'      # mode (rw or ro) in an attachment create.
TRANSFER_WITH_SNAPSHOTS = '3.55'  # /volume-transfers, no_snapshots.
BACKUP_USER_ID = '3.56'       # user_id in backup responses (admins).
TRANSFER_WITH_HISTORY = '3.57'    # project ids and accepted in transfers.
GROUP_PROJECT_ID = '3.58'     # project_id of groups, group snapshots.
TRANSFER_PAGINATION = '3.59'  # transfer lists newest first by default.
CLUSTER_NAME = '3.61'         # cluster_name in volumes (admins).
DEFAULT_TYPES = '3.62'        # /default-types: projects' default types.
VOLUME_TYPE_ID = '3.63'       # volume_type_id in volume responses.
CONSUMES_QUOTA = '3.65'       # consumes_quota in volume responses.
SNAPSHOT_IN_USE = '3.66'      # snapshots of in-use volumes, no force.
REIMAGE = '3.68'              # os-reimage.
EXTEND_COMPLETION = '3.71'    # os-extend_volume_completion (services).

MIN_VERSION = BASE
# The latest version (when a new one changes nothing tether serves, it
# has a row in the history but no constant, and is written here).
MAX_VERSION = EXTEND_COMPLETION
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
