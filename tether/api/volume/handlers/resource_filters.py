"""Handler of GET /resource_filters (from 3.33): the filters each list
of the volume API takes."""

from tether.api import microversion
from tether.api import responses
from tether.api import validation
from tether.api.volume.schemas import resource_filters as schema
from tether.api.volume import versions
from tether.api import wsgi


@microversion.version_window(versions.RESOURCE_FILTERS)
@responses.declare(schema.LIST_RESPONSE)
@validation.query(schema.LIST_QUERY)
def list_resource_filters(req):
    """Every authenticated caller, as in Cinder (which has no rule for
    it): the answer says what the API takes, nothing of any project.
    ``resource`` names one list (a name of none: an empty list)."""
    wanted = req.validated_query.get('resource')
    return wsgi.json_response({'resource_filters': [
        {'resource': resource, 'filters': schema.filters(query)}
        for resource, query in schema.LISTS
        if wanted is None or wanted == resource]})
