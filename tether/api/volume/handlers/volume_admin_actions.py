"""Handlers of the administrators' actions of POST /volumes/{id}/action
that delete or repair (os-force_delete)."""

from tether.api import responses
from tether.api import validation
from tether.api.volume.handlers import volumes
from tether.api.volume.schemas import volume_admin_actions as schema
from tether.api import wsgi
from tether.policies.volume import volume_admin_actions as policy
from tether.volume.api import volumes as volume_api


@responses.declare(None, 202)
@validation.body(schema.FORCE_DELETE)
def force_delete(req):
    """Delete the volume whatever its status (within
    fields.FORCE_DELETABLE_STATUSES), as DELETE ?force=true does."""
    volume = volumes.load_volume(req, policy.FORCE_DELETE)
    volume_api.delete(req.context, volume.id, force=True)
    return wsgi.empty_response(202)


ACTIONS = {
    'os-force_delete': force_delete,
}
