"""Handlers of a volume's image metadata actions (POST
/volumes/{id}/action): os-set_image_metadata, os-unset_image_metadata,
os-show_image_metadata."""

from tether.api import responses
from tether.api import validation
from tether.api.volume.handlers import volumes
from tether.api.volume.schemas import volume_image_metadata as schema
from tether.api import wsgi
from tether.policies.volume import volume_metadata as policy
from tether.volume.api import volume_image_metadata as image_metadata_api


def _load(req, rule, metadata_rule):
    """The volume, after its action's rule and (as Cinder checks both)
    the rule of the same change to its metadata."""
    volume = volumes.load_volume(req, rule)
    req.context.can(metadata_rule, {'project_id': volume.project_id,
                                    'user_id': volume.user_id})
    return volume


@responses.declare(schema.METADATA_RESPONSE)
@validation.body(schema.SET_IMAGE_METADATA)
def set_image_metadata(req):
    volume = _load(req, policy.IMAGE_METADATA_SET, policy.UPDATE_METADATA)
    metadata = image_metadata_api.update(
        req.context, volume.id,
        req.validated['os-set_image_metadata']['metadata'])
    return wsgi.json_response({'metadata': metadata})


@responses.declare(None, 200)
@validation.body(schema.UNSET_IMAGE_METADATA)
def unset_image_metadata(req):
    volume = _load(req, policy.IMAGE_METADATA_REMOVE,
                   policy.DELETE_METADATA)
    image_metadata_api.delete(req.context, volume.id,
                              req.validated['os-unset_image_metadata']['key'])
    return wsgi.empty_response(200)


@responses.declare(schema.METADATA_RESPONSE)
@validation.body(schema.SHOW_IMAGE_METADATA)
def show_image_metadata(req):
    # Cinder's rule for it is the volume metadata's.
    volume = volumes.load_volume(req, policy.GET_METADATA)
    return wsgi.json_response({'metadata': dict(volume.image_metadata)})


ACTIONS = {
    'os-set_image_metadata': set_image_metadata,
    'os-show_image_metadata': show_image_metadata,
    'os-unset_image_metadata': unset_image_metadata,
}
