"""Handlers of /servers/{server_id}/metadata: list, show a key, merge
(POST), replace (PUT), set a key (PUT), delete a key."""

from tether.api.compute.handlers import servers
from tether.api.compute.schemas import server_metadata as schema
from tether.api import fault
from tether.api import responses
from tether.api import validation
from tether.api import wsgi
from tether.compute.api import server_metadata as metadata_api
from tether.compute import exception
from tether.policies.compute import server_metadata as policy


def _load(req, rule):
    return servers.load_server(req, rule)


@responses.declare(schema.METADATA_RESPONSE)
@validation.query(schema.ANY_QUERY)
def list_server_metadata(req):
    instance = _load(req, policy.INDEX)
    return wsgi.json_response({'metadata': instance.metadata or {}})


@responses.declare(schema.META_RESPONSE)
@validation.query(schema.ANY_QUERY)
def show_server_metadata(req):
    instance = _load(req, policy.SHOW)
    key = req.urlvars['key']
    if key not in (instance.metadata or {}):
        raise exception.MetadataItemNotFound()
    return wsgi.json_response({'meta': {key: instance.metadata[key]}})


@responses.declare(schema.METADATA_RESPONSE)
@validation.body(schema.CREATE)
def create_server_metadata(req):
    instance = _load(req, policy.CREATE)
    metadata = metadata_api.update(req.context, instance,
                                   req.validated['metadata'])
    return wsgi.json_response({'metadata': metadata})


@responses.declare(schema.METADATA_RESPONSE)
@validation.body(schema.UPDATE_ALL)
def update_all_server_metadata(req):
    instance = _load(req, policy.UPDATE_ALL)
    metadata = metadata_api.update(req.context, instance,
                                   req.validated['metadata'], replace=True)
    return wsgi.json_response({'metadata': metadata})


@responses.declare(schema.META_RESPONSE)
@validation.body(schema.UPDATE)
def update_server_metadata(req):
    instance = _load(req, policy.UPDATE)
    meta = req.validated['meta']
    if req.urlvars['key'] not in meta:
        raise fault.HTTPError(400, 'Request body and URI mismatch: the '
                                   'body sets %s, the URL names %s.'
                              % (next(iter(meta)), req.urlvars['key']))
    metadata_api.update(req.context, instance, meta)
    return wsgi.json_response({'meta': meta})


@responses.declare(None, 204)
@validation.query(schema.ANY_QUERY)
def delete_server_metadata(req):
    instance = _load(req, policy.DELETE)
    metadata_api.delete_key(req.context, instance, req.urlvars['key'])
    return wsgi.empty_response(204)
