"""The query of a list of the volume API: its page, order and scope,
then the filters of each resource."""

from tether.api import query
from tether.api import validation as v
from tether.api.volume import versions

STRING = {'type': 'string', 'maxLength': 255}
# ``metadata={"k": "v"}``: a map in the query (tether.api.query).
METADATA_FILTER = {'type': 'string', 'maxLength': query.MAX_FILTER_LENGTH}


def list_query(**filters):
    """The schema of a list's query string: paging (``limit``,
    ``offset``, ``marker``), order (``sort``, or ``sort_key`` and
    ``sort_dir``), scope (``all_tenants``, ``project_id``) and
    ``filters`` (name: schema); nothing else."""
    properties = {
        'limit': v.non_negative_integer_string,
        'offset': v.non_negative_integer_string,
        'marker': STRING,
        'sort': v.sort_param,
        'sort_key': STRING,
        'sort_dir': {'type': 'string', 'enum': ['asc', 'desc']},
        'all_tenants': v.boolean,
        'project_id': STRING,
    }
    properties.update(filters)
    return {'type': 'object', 'properties': properties,
            'additionalProperties': False}


# What a list's body gains when its query asks for it (with_count=true,
# 3.45): a step of tether.api.response_types.growing.
COUNT_STEP = (versions.WITH_COUNT, {'count': {'type': 'integer'}}, [])
