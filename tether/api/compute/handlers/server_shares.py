"""Handlers of /servers/{id}/shares (2.97): list, show, attach, detach
Manila shares."""

from tether.api.compute.handlers import servers
from tether.api.compute.schemas import server_shares as schema
from tether.api.compute import versions
from tether.api.compute.views import server_shares as views
from tether.api import microversion
from tether.api import responses
from tether.api import validation
from tether.api import wsgi
from tether.compute.api import server_shares as shares_api
from tether.policies.compute import server_shares as policy

served = microversion.version_window(versions.SERVER_SHARES)


@served
@responses.declare(schema.LIST_RESPONSE, 200, versions.SERVER_SHARES)
@validation.query(schema.NO_QUERY)
def list_server_shares(req):
    instance = servers.load_server(req, policy.INDEX)
    return wsgi.json_response({'shares': [
        views.ServerShareView.summary(m)
        for m in shares_api.list_shares(req.context, instance)]})


@served
@responses.declare(schema.SHOW_RESPONSE, 200, versions.SERVER_SHARES)
@validation.query(schema.NO_QUERY)
def show_server_share(req):
    instance = servers.load_server(req, policy.SHOW)
    mapping = shares_api.get(req.context, instance,
                             req.urlvars['share_id'])
    return wsgi.json_response({'share': views.ServerShareView(req).item(
        instance, mapping)})


@served
@responses.declare(schema.SHOW_RESPONSE, 201, versions.SERVER_SHARES)
@validation.query(schema.NO_QUERY)
@validation.body(schema.CREATE)
def create_server_share(req):
    instance = servers.load_server(req, policy.CREATE)
    body = req.validated['share']
    mapping = shares_api.attach_share(req.context, instance,
                                      body['share_id'], tag=body.get('tag'))
    return wsgi.json_response({'share': views.ServerShareView(req).item(
        instance, mapping)}, status=201)


@served
@responses.declare(None, 200, versions.SERVER_SHARES)
@validation.query(schema.NO_QUERY)
def delete_server_share(req):
    instance = servers.load_server(req, policy.DELETE)
    shares_api.detach_share(req.context, instance, req.urlvars['share_id'])
    return wsgi.empty_response(200)
