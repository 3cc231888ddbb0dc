"""Handlers of /os-snapshots, the compute API's proxy to the volume API's
snapshots (2.1 to 2.35, as Nova; 404 from 2.36): list, detail, show,
create, delete (tether.compute.api.snapshots; with a volume API that
serves no snapshots, what Nova answers then)."""

from oslo_utils import strutils

from tether.api.compute.schemas import snapshots as schema
from tether.api.compute import versions
from tether.api.compute.views import snapshots as views
from tether.api import microversion
from tether.api import responses
from tether.api import validation
from tether.api import wsgi
from tether.compute.api import snapshots as snapshots_api
from tether.policies.compute import snapshots as policy

served = microversion.version_window(
    versions.BASE, microversion.before(versions.PROXIES_REMOVED))


def _can(req, action):
    req.context.can(action, {'project_id': req.context.project_id})


def _list(req, action):
    _can(req, action)
    params = req.validated_query
    found = snapshots_api.list_snapshots(
        req.context, limit=params.get('limit'), offset=params.get('offset'))
    return wsgi.json_response(
        {'snapshots': [views.snapshot(s) for s in found]})


@served
@responses.declare(schema.LIST_RESPONSE)
@validation.query(schema.LIST_QUERY)
def list_snapshots(req):
    return _list(req, policy.LIST)


@served
@responses.declare(schema.LIST_RESPONSE)
@validation.query(schema.LIST_QUERY)
def list_snapshots_detail(req):
    return _list(req, policy.DETAIL)


@served
@responses.declare(schema.SHOW_RESPONSE)
@validation.query(validation.IGNORED_QUERY)
def show_snapshot(req):
    _can(req, policy.SHOW)
    found = snapshots_api.get(req.context, req.urlvars['snapshot_id'])
    return wsgi.json_response({'snapshot': views.snapshot(found)})


@served
@responses.declare(schema.SHOW_RESPONSE)
@validation.body(schema.CREATE)
def create_snapshot(req):
    _can(req, policy.CREATE)
    body = req.validated['snapshot']
    made = snapshots_api.create(
        req.context, body['volume_id'], name=body.get('display_name'),
        description=body.get('display_description'),
        force=strutils.bool_from_string(body.get('force', False),
                                        strict=True))
    return wsgi.json_response({'snapshot': views.snapshot(made)})


@served
@responses.declare(None, 202)
@validation.query(validation.IGNORED_QUERY)
def delete_snapshot(req):
    _can(req, policy.DELETE)
    snapshots_api.delete(req.context, req.urlvars['snapshot_id'])
    return wsgi.empty_response(202)
