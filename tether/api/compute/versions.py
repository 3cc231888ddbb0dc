"""Microversions of the compute API, and version discovery.

Each constant below is a microversion that changes what tether serves,
named for what it adds, with one line of comment; handlers, schemas and
views name versions by these constants, never by number. They are the
one list of the versions tether applies; what each version changes, and
whether and how tether applies it, is its row in
doc/source/compute-api-versions.rst (tests/unit/api/test_versions.py
fails on a constant without a row).
"""

from tether.api import microversion
from tether.api import wsgi

BASE = '2.1'                     # v2.1: strict input validation.
KEYPAIR_TYPE = '2.2'             # keypair type; create 201, delete 204.
FLAVOR_ACCESS_PUBLIC_CONFLICT = '2.7'  # addTenantAccess to public: 409.
EXTENDED_ATTRIBUTES = '2.3'      # more OS-EXT-SRV-ATTR: server attributes.
LOCKED = '2.9'                   # locked in server views.
KEYPAIR_USER_ID = '2.10'         # keypairs of another user (user_id, admins).
FORCED_DOWN = '2.11'             # forced_down in os-services.
SERVER_GROUP_OWNER = '2.13'      # project_id, user_id of server groups.
SOFT_AFFINITY = '2.15'           # soft-affinity, soft-anti-affinity groups.
HOST_STATUS = '2.16'             # host_status of servers (by policy).
SERVER_DESCRIPTION = '2.19'      # server description: create, update, show.
DELETED_SERVER_ACTIONS = '2.21'  # instance actions of deleted servers.
SERVER_TAGS = '2.26'             # tags (empty) in server views.
CPU_INFO_OBJECT = '2.28'         # hypervisor cpu_info as a JSON object.
HYPERVISOR_PAGING = '2.33'       # limit and marker on hypervisor lists.
KEYPAIR_PAGING = '2.35'          # limit and marker on keypair lists.
PROXIES_REMOVED = '2.36'         # no os-volumes, os-snapshots, images.
NETWORK_QUOTAS_REMOVED = '2.36'  # no network quotas in quota sets, limits.
NETWORKS_REQUIRED = '2.37'       # networks required in a server create.
STRICT_STATUS_FILTER = '2.38'    # an unknown status filter is a 400.
IMAGE_META_PROXY_REMOVED = '2.39'  # no maxImageMeta; createImage unchecked.
USAGE_PAGING = '2.40'            # limit and marker on simple tenant usage.
AGGREGATE_UUID = '2.41'          # uuid of aggregates.
BDM_TAG = '2.42'                 # tag on block_device_mapping_v2 entries.
SNAPSHOT_IMAGE_ID = '2.45'      # createImage, createBackup answer image_id.
EMBEDDED_FLAVOR = '2.47'         # the server's flavor embedded, not linked.
ATTACH_WITH_TAG = '2.49'         # tag when attaching a volume.
QUOTA_CLASS_SERVER_GROUPS = '2.50'  # quota classes: server groups, no network.
VOLUME_EXTENDED_EVENT = '2.51'   # volume-extended; action events for all.
SERVICE_UUIDS = '2.53'           # services, hypervisors by UUID; PUT service.
KEYPAIR_ON_REBUILD = '2.54'      # key_name on rebuild (null: no keypairs).
FLAVOR_DESCRIPTION = '2.55'      # flavor description.
USER_DATA_ON_REBUILD = '2.57'    # user_data on rebuild; no personality.
PERSONALITY_QUOTAS_REMOVED = '2.57'  # no injected_file* quotas, limits.
INSTANCE_ACTION_PAGING = '2.58'  # paging, changes-since on instance actions.
FLAVOR_EXTRA_SPECS = '2.61'      # extra_specs in flavor responses.
EVENT_HOST = '2.62'              # host and hostId in instance action events.
TRUSTED_CERTS = '2.63'           # trusted_image_certificates (null).
SERVER_GROUP_POLICY = '2.64'     # server group policy and rules.
CHANGES_BEFORE = '2.66'          # changes-before on instance action lists.
ATTACHMENT_TAG = '2.70'          # tag in os-volume_attachments responses.
SERVER_GROUPS = '2.71'           # server_groups in show, update, rebuild.
LOCKED_REASON = '2.73'           # lock with locked_reason; shown in servers.
STRICT_QUERY = '2.75'            # unknown query keys 400; swap 0, not "".
POWER_UPDATE_EVENT = '2.76'      # the power-update external event.
DELETE_ON_TERMINATION = '2.79'   # delete_on_termination of attachments.
ACCELERATOR_EVENT = '2.82'       # the accelerator-request-bound event.
EVENT_DETAILS = '2.84'           # details of failed instance action events.
ATTACHMENT_UPDATE = '2.85'       # PUT of an attachment: delete_on_termination.
EXTRA_SPEC_VALIDATION = '2.86'   # flavor extra specs checked as Nova does.
RESCUE_BFV = '2.87'              # rescue of volume-backed servers.
HYPERVISOR_UPTIME = '2.88'       # hypervisors: uptime, no capacity fields.
ATTACHMENT_IDS = '2.89'          # attachment_id, bdm_uuid in attachments.
SERVER_HOSTNAME = '2.90'         # hostname on server create and update.
KEYPAIR_IMPORT_ONLY = '2.92'     # keypairs imported only; @ and . in names.
VOLUME_REBUILD = '2.93'          # rebuild re-images a volume-backed server.
FQDN_HOSTNAME = '2.94'           # hostname may be a fully qualified name.
PINNED_AVAILABILITY_ZONE = '2.96'  # pinned_availability_zone of servers.
SERVER_SHARES = '2.97'           # /servers/{id}/shares: Manila shares.

MIN_VERSION = BASE
# The latest version (when a new one changes nothing tether serves, it
# has a row in the history but no constant, and is written here).
MAX_VERSION = SERVER_SHARES
UPDATED = '2013-07-23T11:33:21Z'
LEGACY_HEADER = 'X-OpenStack-Nova-API-Version'

SERVICE = microversion.Service('compute', MIN_VERSION, MAX_VERSION,
                               legacy_headers=[LEGACY_HEADER])


# Nova's legacy v2 endpoint (tether.api.compute.routes.LEGACY_PREFIX):
# the v2.1 API at 2.1, listed first as Nova lists it.
LEGACY_UPDATED = '2011-01-21T11:33:21Z'


def _links(req, path):
    return [
        {'rel': 'self', 'href': req.application_url + path},
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
        'links': _links(req, '/v2.1/'),
        'media-types': [{
            'base': 'application/json',
            'type': 'application/vnd.openstack.compute+json;version=2.1',
        }],
    }


def _legacy_doc(req):
    return {
        'id': 'v2.0',
        'status': 'SUPPORTED',
        'version': '',
        'min_version': '',
        'updated': LEGACY_UPDATED,
        'links': _links(req, '/v2/'),
        'media-types': [{
            'base': 'application/json',
            'type': 'application/vnd.openstack.compute+json;version=2',
        }],
    }


def endpoint(req):
    """The URL of the endpoint ``req`` came to: .../v2.1, or .../v2 for
    the legacy one (the links of the resources in its answers)."""
    return req.application_url + (
        '/v2' if microversion.legacy_v2(req) else '/v2.1')


def list_versions(req):
    """GET / : the versions of the API, v2.0 (the legacy endpoint) then
    v2.1."""
    docs = [_legacy_doc(req), _version_doc(req)]
    for doc in docs:
        del doc['media-types']
        doc['links'] = doc['links'][:1]
    return wsgi.json_response({'versions': docs})


def show_version(req):
    """GET /v2.1/ : the v2.1 version document."""
    return wsgi.json_response({'version': _version_doc(req)})


def show_legacy_version(req):
    """GET /v2/ : the v2.0 version document."""
    return wsgi.json_response({'version': _legacy_doc(req)})


ROUTES = [
    ('/', {'GET': list_versions}),
    ('/v2.1', {'GET': show_version}),
    ('/v2.1/', {'GET': show_version}),
    ('/v2', {'GET': show_legacy_version}),
    ('/v2/', {'GET': show_legacy_version}),
]
PUBLIC_PATHS = [path for path, _ in ROUTES]
