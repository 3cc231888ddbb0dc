"""Handler of /extensions: the Cinder API extensions tether serves."""

from tether.api import responses
from tether.api import validation
from tether.api.volume import extensions
from tether.api.volume.schemas import extensions as schema
from tether.api import wsgi


@responses.declare(schema.LIST_RESPONSE)
@validation.query(schema.NO_QUERY)
def list_extensions(req):
    """Every authenticated caller, as in Cinder (which has no rule for
    it): the list says what the API serves, nothing of any project."""
    return wsgi.json_response({'extensions': [
        {'name': name, 'alias': alias, 'description': description,
         'updated': updated, 'links': []}
        for name, alias, description, updated in extensions.EXTENSIONS]})
