"""Handlers of /volumes/{id}/metadata and /metadata/{key}."""

from tether.api import fault
from tether.api import responses
from tether.api import validation
from tether.api.volume.handlers import volumes
from tether.api.volume.schemas import volume_metadata as schema
from tether.api import wsgi
from tether.policies.volume import volume_metadata as policy
from tether.volume.api import volume_metadata as metadata_api
from tether.volume import exception


@responses.declare(schema.METADATA_RESPONSE)
@validation.query(schema.NO_QUERY)
def list_metadata(req):
    volume = volumes.load_volume(req, policy.GET_METADATA)
    return wsgi.json_response({'metadata': volume.visible_metadata()})


@responses.declare(schema.METADATA_RESPONSE)
@validation.body(schema.METADATA)
def create_metadata(req):
    volume = volumes.load_volume(req, policy.CREATE_METADATA)
    metadata = metadata_api.update_metadata(
        req.context, volume.id, req.validated['metadata'])
    return wsgi.json_response({'metadata': metadata})


@responses.declare(schema.METADATA_RESPONSE)
@validation.body(schema.METADATA)
def replace_metadata(req):
    volume = volumes.load_volume(req, policy.UPDATE_METADATA)
    metadata = metadata_api.update_metadata(
        req.context, volume.id, req.validated['metadata'],
        delete_others=True)
    return wsgi.json_response({'metadata': metadata})


@responses.declare(schema.META_ITEM_RESPONSE)
@validation.query(schema.NO_QUERY)
def show_metadata_item(req):
    volume = volumes.load_volume(req, policy.GET_METADATA)
    key = req.urlvars['key']
    metadata = volume.visible_metadata()
    if key not in metadata:
        raise exception.VolumeMetadataNotFound(volume_id=volume.id, key=key)
    return wsgi.json_response({'meta': {key: metadata[key]}})


@responses.declare(schema.META_ITEM_RESPONSE)
@validation.body(schema.META_ITEM)
def update_metadata_item(req):
    volume = volumes.load_volume(req, policy.UPDATE_METADATA)
    key = req.urlvars['key']
    meta = req.validated['meta']
    if key not in meta:
        raise fault.HTTPError(400, 'The key in the body (%s) differs from '
                                   'the key in the URL (%s).'
                              % (next(iter(meta)), key))
    metadata_api.update_metadata(req.context, volume.id, meta)
    return wsgi.json_response({'meta': meta})


@responses.declare(None, 200)
@validation.query(schema.NO_QUERY)
def delete_metadata_item(req):
    volume = volumes.load_volume(req, policy.DELETE_METADATA)
    metadata_api.delete_metadata(req.context, volume.id, req.urlvars['key'])
    return wsgi.empty_response(200)
