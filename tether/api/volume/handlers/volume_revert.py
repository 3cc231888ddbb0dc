"""Handler of the volume action revert (3.40): a volume to its latest
snapshot."""

from tether.api import microversion
from tether.api import responses
from tether.api import validation
from tether.api.volume.handlers import volumes
from tether.api.volume.schemas import volume_revert as schema
from tether.api.volume import versions
from tether.api import wsgi
from tether.policies.volume import volume_revert as policy
from tether.volume.api import volume_revert as revert_api


@microversion.version_window(versions.VOLUME_REVERT)
@responses.declare(None, 202)
@validation.body(schema.REVERT)
def revert(req):
    volume = volumes.load_volume(req, policy.REVERT)
    revert_api.revert(req.context, volume.id,
                      req.validated['revert']['snapshot_id'])
    return wsgi.empty_response(202)


ACTIONS = {
    'revert': revert,
}
