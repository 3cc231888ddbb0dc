"""Handlers of /os-volumes, the compute API's proxy to the volume API
(2.1 to 2.35, as Nova; 404 from 2.36): list, detail, show, create,
delete."""

from tether.api.compute.schemas import volumes as schema
from tether.api.compute import versions
from tether.api.compute.views import volumes as views
from tether.api import microversion
from tether.api import responses
from tether.api import validation
from tether.api import wsgi
from tether.compute.api import volumes as volumes_api
from tether.policies.compute import volumes as policy

served = microversion.version_window(
    versions.BASE, microversion.before(versions.PROXIES_REMOVED))


def _can(req, action):
    req.context.can(action, {'project_id': req.context.project_id})


def _list(req, action):
    _can(req, action)
    params = req.validated_query
    found = volumes_api.list_volumes(
        req.context, limit=params.get('limit'), offset=params.get('offset'))
    return wsgi.json_response({'volumes': [views.volume(v) for v in found]})


@served
@responses.declare(schema.LIST_RESPONSE)
@validation.query(schema.LIST_QUERY)
def list_volumes(req):
    return _list(req, policy.LIST)


@served
@responses.declare(schema.LIST_RESPONSE)
@validation.query(schema.LIST_QUERY)
def list_volumes_detail(req):
    return _list(req, policy.DETAIL)


@served
@responses.declare(schema.SHOW_RESPONSE)
@validation.query(validation.IGNORED_QUERY)
def show_volume(req):
    _can(req, policy.SHOW)
    found = volumes_api.get(req.context, req.urlvars['volume_id'])
    return wsgi.json_response({'volume': views.volume(found)})


@served
@responses.declare(schema.SHOW_RESPONSE)
@validation.body(schema.CREATE)
def create_volume(req):
    _can(req, policy.CREATE)
    body = req.validated['volume']
    made = volumes_api.create(
        req.context, int(body['size']), name=body.get('display_name'),
        description=body.get('display_description'),
        volume_type=body.get('volume_type'), metadata=body.get('metadata'),
        availability_zone=body.get('availability_zone'),
        snapshot_id=body.get('snapshot_id'))
    return wsgi.json_response(
        {'volume': views.volume(made)},
        headers={'Location': '%s/%s' % (req.path_url, made['id'])})


@served
@responses.declare(None, 202)
@validation.query(validation.IGNORED_QUERY)
def delete_volume(req):
    _can(req, policy.DELETE)
    volumes_api.delete(req.context, req.urlvars['volume_id'])
    return wsgi.empty_response(202)
