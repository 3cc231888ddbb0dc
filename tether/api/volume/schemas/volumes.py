"""Schemas of /volumes: create, update, list queries."""

import copy

from tether.api import response_types as rt
from tether.api import validation as v
from tether.api.volume import versions
from tether.api.volume.schemas import listing

_nullable_id = {'type': ['string', 'null'], 'maxLength': 255}

# Cinder clients send every create attribute they know, most of them null.
# Non-null values of the sources tether does not offer are refused by the
# handler with a message that names them.
_CREATE_VOLUME = {
    'type': 'object',
    'properties': {
        # Required unless the volume is made of a snapshot or a volume
        # (the handler says so).
        'size': {'oneOf': [v.positive_integer, {'type': 'null'}]},
        'name': v.string(nullable=True),
        'display_name': v.string(nullable=True),
        'description': v.string(nullable=True),
        'display_description': v.string(nullable=True),
        'volume_type': {'type': ['string', 'null'], 'maxLength': 255},
        'availability_zone': {'type': ['string', 'null'], 'maxLength': 255},
        'metadata': {'oneOf': [v.metadata, {'type': 'null'}]},
        'multiattach': {'oneOf': [v.boolean, {'type': 'null'}]},
        'snapshot_id': {'oneOf': [v.uuid, {'type': 'null'}]},
        'source_volid': {'oneOf': [v.uuid, {'type': 'null'}]},
        'imageRef': _nullable_id,
        'image_id': _nullable_id,
        'backup_id': _nullable_id,
        'consistencygroup_id': _nullable_id,
        'group_id': _nullable_id,
        'source_replica': _nullable_id,
    },
    'additionalProperties': False,
}

CREATE = {
    'type': 'object',
    'properties': {
        'volume': _CREATE_VOLUME,
        'OS-SCH-HNT:scheduler_hints': {'type': ['object', 'null']},
    },
    'required': ['volume'],
    'additionalProperties': False,
}

UPDATE = {
    'type': 'object',
    'properties': {
        'volume': {
            'type': 'object',
            'properties': {
                'name': v.string(nullable=True),
                'display_name': v.string(nullable=True),
                'description': v.string(nullable=True),
                'display_description': v.string(nullable=True),
                'metadata': v.metadata,
            },
            'additionalProperties': False,
        },
    },
    'required': ['volume'],
    'additionalProperties': False,
}

LIST_QUERY = listing.list_query(
    user_id=listing.STRING, name=listing.STRING, status=listing.STRING,
    availability_zone=listing.STRING, bootable=v.boolean,
    multiattach=v.boolean, metadata=listing.METADATA_FILTER,
    group_id=listing.STRING)

LIST_QUERY_V345 = copy.deepcopy(LIST_QUERY)
LIST_QUERY_V345['properties']['with_count'] = v.boolean

SHOW_QUERY = {'type': 'object', 'properties': {},
              'additionalProperties': False}

SUMMARY_QUERY = {
    'type': 'object',
    'properties': {'all_tenants': v.boolean},
    'additionalProperties': False,
}


# Responses ------------------------------------------------------------------

# One entry of a volume's attachments (Cinder's, not the attachments API's).
_attachment = rt.obj({
    'id': rt.uuid,
    'attachment_id': rt.uuid,
    'volume_id': rt.uuid,
    'server_id': rt.uuid_or_null,
    'host_name': rt.string_or_null,
    'device': rt.string_or_null,
    'attached_at': rt.date_time_or_null,
}, required=['id', 'attachment_id', 'volume_id', 'server_id', 'host_name',
             'device'])

# What a create and an update answer: the volume without the attributes
# that Cinder's API extensions add to a GET.
_volume = rt.obj({
    'id': rt.uuid,
    'name': rt.string_or_null,
    'description': rt.string_or_null,
    'status': {'type': 'string'},
    'size': {'type': 'integer'},
    'availability_zone': rt.string_or_null,
    'created_at': rt.date_time,
    'updated_at': rt.date_time_or_null,
    'attachments': {'type': 'array', 'items': _attachment},
    'links': rt.links,
    'user_id': {'type': 'string'},
    'bootable': {'type': 'string', 'enum': ['true', 'false']},
    'encrypted': {'type': 'boolean'},
    'replication_status': rt.string_or_null,
    'consistencygroup_id': rt.uuid_or_null,
    'multiattach': {'type': 'boolean'},
    'snapshot_id': rt.uuid_or_null,
    'source_volid': rt.uuid_or_null,
    'volume_type': rt.string_or_null,
    'metadata': rt.string_map,
    # To administrators alone, as Cinder shows it.
    'migration_status': rt.string_or_null,
}, required=['id', 'name', 'description', 'status', 'size',
             'availability_zone', 'created_at', 'updated_at', 'attachments',
             'links', 'user_id', 'bootable', 'encrypted',
             'replication_status', 'consistencygroup_id', 'multiattach',
             'snapshot_id', 'source_volid', 'volume_type', 'metadata'])

# What a GET adds, each for whoever the policy lets see it.
_volume_get = rt.extended(_volume, {
    'os-vol-tenant-attr:tenant_id': {'type': 'string'},
    # host@backend#pool as tether writes it, null until the volume is
    # scheduled; no pattern, as Cinder's volumes of before pools have none.
    'os-vol-host-attr:host': {'type': ['string', 'null']},
    'volume_image_metadata': rt.string_map,
    'os-vol-mig-status-attr:migstat': rt.string_or_null,
    'os-vol-mig-status-attr:name_id': rt.uuid_or_null,
})


# The keys each microversion adds to a volume: Cinder sends them from
# their version on, the host's (provider_id, cluster_name) to
# administrators only. (3.69 lets shared_targets be null, which tether,
# whose backends always say, never sends.)
_VOLUME_STEPS = (
    (versions.GROUP_ID, {'group_id': rt.uuid_or_null}, ['group_id']),
    (versions.PROVIDER_ID, {'provider_id': rt.uuid_or_null}, []),
    (versions.SHARED_TARGETS, {'service_uuid': rt.uuid_or_null,
                               'shared_targets': {'type': 'boolean'}},
     ['service_uuid', 'shared_targets']),
    (versions.CLUSTER_NAME, {'cluster_name': rt.string_or_null}, []),
    (versions.VOLUME_TYPE_ID, {'volume_type_id': rt.uuid_or_null},
     ['volume_type_id']),
    (versions.CONSUMES_QUOTA, {'consumes_quota': {'type': 'boolean'}},
     ['consumes_quota']),
)


def _windows(volume, wrap, count=False):
    """The windows of ``wrap(volume)`` as the volume grows; ``count``:
    a list's body, which has its count when asked from 3.45."""
    return rt.growing(volume, wrap, _VOLUME_STEPS,
                      [listing.COUNT_STEP] if count else [])


def _one(volume):
    return rt.wrapped('volume', volume)


def _list(item):
    return rt.obj({'volumes': {'type': 'array', 'items': item},
                   'volumes_links': rt.links}, required=['volumes'])


CREATE_RESPONSES = _windows(_volume, _one)
UPDATE_RESPONSES = CREATE_RESPONSES
SHOW_RESPONSES = _windows(_volume_get, _one)
LIST_DETAIL_RESPONSES = _windows(_volume_get, _list, count=True)
_volume_summary = rt.obj({'id': rt.uuid, 'name': rt.string_or_null,
                          'links': rt.links})
LIST_RESPONSES = rt.growing(_volume_summary, _list, (), [listing.COUNT_STEP])

_summary = rt.obj({'total_size': {'type': 'integer'},
                   'total_count': {'type': 'integer'}})
SUMMARY_RESPONSES = rt.by_version(
    rt.wrapped('volume-summary', _summary),
    # {key: every value of it}
    (versions.SUMMARY_METADATA, rt.wrapped('volume-summary', rt.extended(
        _summary, {'metadata': {'type': 'object', 'additionalProperties': {
            'type': 'array', 'items': {'type': 'string'}}}},
        ['metadata']))))
