"""Handlers of the volume actions that set a flag: os-set_bootable and
os-update_readonly_flag."""

from oslo_utils import strutils

from tether.api import responses
from tether.api import validation
from tether.api.volume.handlers import volumes
from tether.api.volume.schemas import volume_flags as schema
from tether.api import wsgi
from tether.policies.volume import volume_flags as policy
from tether.policies.volume import volumes as volume_policy
from tether.volume.api import volume_flags as flags_api


def _bool(value):
    return strutils.bool_from_string(value, strict=True)


@responses.declare(None, 200)
@validation.body(schema.SET_BOOTABLE)
def set_bootable(req):
    # Cinder's volume update, with its policy; 200 without a body.
    volume = volumes.load_volume(req, volume_policy.UPDATE)
    flags_api.set_bootable(req.context, volume.id,
                           _bool(req.validated['os-set_bootable']['bootable']))
    return wsgi.empty_response(200)


@responses.declare(None, 202)
@validation.body(schema.UPDATE_READONLY_FLAG)
def update_readonly_flag(req):
    volume = volumes.load_volume(req, policy.UPDATE_READONLY)
    flags_api.update_readonly(
        req.context, volume.id,
        _bool(req.validated['os-update_readonly_flag']['readonly']))
    return wsgi.empty_response(202)


ACTIONS = {
    'os-set_bootable': set_bootable,
    'os-update_readonly_flag': update_readonly_flag,
}
