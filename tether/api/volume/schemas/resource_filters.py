"""Schemas of GET /resource_filters (3.33): its query, its answer, and
the lists it describes. The filters it names are read off the query
schemas the lists validate with, so it cannot name one a list refuses."""

from tether.api import response_types as rt
from tether.api.volume.schemas import attachments
from tether.api.volume.schemas import snapshots
from tether.api.volume.schemas import types
from tether.api.volume.schemas import volumes

# Cinder's resource names, of the lists tether serves, and the query
# each list takes at the latest version.
LISTS = (
    ('volume', volumes.LIST_QUERY_V345),
    ('snapshot', snapshots.LIST_QUERY_V345),
    ('attachment', attachments.LIST_QUERY),
    ('volume_type', types.LIST_QUERY),
)

# What every list takes that is not a filter: its page, order and scope.
NOT_FILTERS = frozenset(('limit', 'offset', 'marker', 'sort', 'sort_key',
                         'sort_dir', 'all_tenants', 'project_id',
                         'with_count'))


def filters(query_schema):
    """The filters a list's query schema takes, sorted."""
    return sorted(k for k in query_schema['properties']
                  if k not in NOT_FILTERS)


LIST_QUERY = {
    'type': 'object',
    'properties': {'resource': {'type': 'string', 'maxLength': 255}},
    'additionalProperties': False,
}


# Responses ------------------------------------------------------------------

LIST_RESPONSE = rt.wrapped('resource_filters', {
    'type': 'array',
    'items': rt.obj({'resource': {'type': 'string'},
                     'filters': {'type': 'array',
                                 'items': {'type': 'string'}}}),
})
