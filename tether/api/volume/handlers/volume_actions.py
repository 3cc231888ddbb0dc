"""Handlers of POST /volumes/{id}/action: one function per action."""

from tether.api import actions
from tether.api import microversion
from tether.api import validation
from tether.api.volume.handlers import volumes
from tether.api.volume.schemas import volume_actions as schema
from tether.api.volume import versions
from tether.api import wsgi
from tether.objects import fields
from tether.policies.volume import volume_actions as policy
from tether.volume.api import volume_actions as actions_api


@validation.body(schema.EXTEND)
def extend_volume(req):
    volume = volumes.load_volume(req, policy.EXTEND)
    if volume.status == fields.VolumeStatus.IN_USE:
        req.context.can(policy.EXTEND_ATTACHED,
                        {'project_id': volume.project_id})
    new_size = int(req.validated['os-extend']['new_size'])
    actions_api.extend(req.context, volume, new_size,
                       allow_attached=microversion.at_least(
                           req, versions.EXTEND_ATTACHED))
    return wsgi.empty_response(202)


@validation.body(schema.RESET_STATUS)
def reset_status(req):
    volume = volumes.load_volume(req, policy.RESET_STATUS)
    body = req.validated['os-reset_status']
    actions_api.reset_status(req.context, volume.id,
                             status=body.get('status'),
                             attach_status=body.get('attach_status'),
                             migration_status=body.get('migration_status'))
    return wsgi.empty_response(202)


@microversion.version_window(versions.EXTEND_COMPLETION)
@validation.body(schema.EXTEND_VOLUME_COMPLETION)
def extend_volume_completion(req):
    # The caller is a service (or an administrator): the volume is found
    # in any project.
    ctx = req.context
    ctx.can(policy.EXTEND_COMPLETION, {'project_id': ctx.project_id})
    actions_api.complete_extend(
        ctx, req.urlvars['volume_id'],
        req.validated['os-extend_volume_completion']['error'])
    return wsgi.empty_response(202)


ACTIONS = {
    'os-extend': extend_volume,
    'os-extend_volume_completion': extend_volume_completion,
    'os-reset_status': reset_status,
}


dispatch = actions.Dispatcher('volume', ACTIONS)
