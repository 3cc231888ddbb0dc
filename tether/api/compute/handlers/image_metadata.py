"""Handlers of /images/{image_id}/metadata, the compute API's proxy to
the image API's properties of an image (2.1 to 2.38, as Nova; 404 from
2.39): list, show a key, merge (POST), replace (PUT), set a key (PUT),
delete a key."""

from tether.api.compute.schemas import image_metadata as schema
from tether.api.compute import versions
from tether.api import fault
from tether.api import microversion
from tether.api import responses
from tether.api import validation
from tether.api import wsgi
from tether.compute.api import images as images_api
from tether.compute import image_exception
from tether.policies.compute import images as policy

served = microversion.version_window(
    versions.BASE, microversion.before(versions.IMAGE_META_PROXY_REMOVED))


def _can(req, action):
    req.context.can(action, {'project_id': req.context.project_id})


def _metadata(req):
    return images_api.properties(
        images_api.get(req.context, req.urlvars['image_id']))


@served
@responses.declare(schema.METADATA_RESPONSE)
@validation.query(schema.ANY_QUERY)
def list_image_metadata(req):
    _can(req, policy.META_INDEX)
    return wsgi.json_response({'metadata': _metadata(req)})


@served
@responses.declare(schema.META_RESPONSE)
@validation.query(schema.ANY_QUERY)
def show_image_metadata(req):
    _can(req, policy.META_SHOW)
    key = req.urlvars['key']
    metadata = _metadata(req)
    if key not in metadata:
        raise image_exception.ImageMetadataItemNotFound(
            image_id=req.urlvars['image_id'], key=key)
    return wsgi.json_response({'meta': {key: metadata[key]}})


@served
@responses.declare(schema.METADATA_RESPONSE)
@validation.body(schema.CREATE)
def create_image_metadata(req):
    _can(req, policy.META_CREATE)
    metadata = images_api.update(req.context, req.urlvars['image_id'],
                                 req.validated['metadata'])
    return wsgi.json_response({'metadata': metadata})


@served
@responses.declare(schema.METADATA_RESPONSE)
@validation.body(schema.UPDATE_ALL)
def update_all_image_metadata(req):
    _can(req, policy.META_UPDATE_ALL)
    metadata = req.validated['metadata']
    images_api.update(req.context, req.urlvars['image_id'], metadata,
                      replace=True)
    return wsgi.json_response({'metadata': metadata})


@served
@responses.declare(schema.META_RESPONSE)
@validation.body(schema.UPDATE)
def update_image_metadata(req):
    _can(req, policy.META_UPDATE)
    meta = req.validated['meta']
    if req.urlvars['key'] not in meta:
        raise fault.HTTPError(400, 'Request body and URI mismatch: the '
                                   'body sets %s, the URL names %s.'
                              % (next(iter(meta)), req.urlvars['key']))
    images_api.update(req.context, req.urlvars['image_id'], meta)
    return wsgi.json_response({'meta': meta})


@served
@responses.declare(None, 204)
@validation.query(schema.ANY_QUERY)
def delete_image_metadata(req):
    _can(req, policy.META_DELETE)
    images_api.delete_key(req.context, req.urlvars['image_id'],
                          req.urlvars['key'])
    return wsgi.empty_response(204)
