"""Handlers of POST /volumes/{id}/action: one function per action."""

from oslo_utils import strutils

from tether.api import microversion
from tether.api import responses
from tether.api import validation
from tether.api.volume.handlers import volumes
from tether.api.volume.schemas import volume_actions as schema
from tether.api.volume import versions
from tether.api.volume.views import volume_actions as views
from tether.api import wsgi
from tether.objects import fields
from tether.policies.volume import volume_actions as policy
from tether.volume.api import retype as retype_api
from tether.volume.api import volume_actions as actions_api
from tether.volume.api import volumes as volume_api


@responses.declare(None, 202)
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


@responses.declare(None, 202)
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
@responses.declare(None, 202)
@validation.body(schema.EXTEND_VOLUME_COMPLETION)
def extend_volume_completion(req):
    ctx = req.context
    # The volume is looked up before its policy is checked, as Cinder
    # does: a caller who may not complete extends in other projects gets
    # 404 for their volumes, not 403. Whoever passes the rule (the
    # service role, an administrator) reaches every project's volumes,
    # as the compute service must.
    # The policy is checked on the volume as the completion reads it, in
    # its transaction: one read of the volume.
    project_id = None
    if not ctx.can(policy.EXTEND_COMPLETION, {'project_id': ctx.project_id},
                   fatal=False):
        project_id = ctx.project_scope

    def authorize(volume):
        ctx.can(policy.EXTEND_COMPLETION, {'project_id': volume.project_id,
                                           'user_id': volume.user_id})

    actions_api.complete_extend(
        ctx, req.urlvars['volume_id'],
        req.validated['os-extend_volume_completion']['error'],
        project_id=project_id, authorize=authorize)
    return wsgi.empty_response(202)


def _bool(value):
    return strutils.bool_from_string(value, strict=True)


@responses.declare(schema.UPLOAD_IMAGE_RESPONSE, 202)
@validation.body(schema.UPLOAD_IMAGE, versions.BASE,
                 microversion.before(versions.UPLOAD_IMAGE_PARAMS))
@validation.body(schema.UPLOAD_IMAGE_V3_1, versions.UPLOAD_IMAGE_PARAMS)
def upload_image(req):
    volume = volumes.load_volume(req, policy.UPLOAD_IMAGE)
    body = req.validated['os-volume_upload_image']
    values = {'name': body['image_name'],
              'disk_format': body.get('disk_format', 'raw'),
              'container_format': body.get('container_format', 'bare')}
    if microversion.at_least(req, versions.UPLOAD_IMAGE_PARAMS):
        values['visibility'] = body.get('visibility', 'private')
        values['protected'] = _bool(body.get('protected', False))
        if values['visibility'] == 'public':
            req.context.can(policy.UPLOAD_PUBLIC,
                            {'project_id': volume.project_id,
                             'user_id': volume.user_id})
    volume, image = actions_api.upload_image(
        req.context, volume, values, force=_bool(body.get('force', False)))
    return wsgi.json_response(
        {'os-volume_upload_image': views.upload_image(volume, image)},
        status=202)


@microversion.version_window(versions.REIMAGE)
@responses.declare(None, 202)
@validation.body(schema.REIMAGE)
def reimage(req):
    volume = volume_api.get(req.context, req.urlvars['volume_id'])
    # Cinder's choice: the rule of a reserved volume (a rebuild's) apart.
    rule = (policy.REIMAGE_RESERVED
            if volume.status == fields.VolumeStatus.RESERVED
            else policy.REIMAGE)
    req.context.can(rule, {'project_id': volume.project_id,
                           'user_id': volume.user_id})
    body = req.validated['os-reimage']
    actions_api.reimage(req.context, volume, body['image_id'],
                        reimage_reserved=body.get('reimage_reserved', False))
    return wsgi.empty_response(202)


@responses.declare(None, 202)
@validation.body(schema.RETYPE)
def retype(req):
    """Give the volume another type (without migration: its backend
    must satisfy the new type's extra specs)."""
    volume = volumes.load_volume(req, policy.RETYPE)
    body = req.validated['os-retype']
    retype_api.retype(req.context, volume, body['new_type'],
                      migration_policy=body.get('migration_policy') or
                      'never')
    return wsgi.empty_response(202)


ACTIONS = {
    'os-extend': extend_volume,
    'os-extend_volume_completion': extend_volume_completion,
    'os-reimage': reimage,
    'os-reset_status': reset_status,
    'os-retype': retype,
    'os-volume_upload_image': upload_image,
}

# Cinder's volume actions that tether does not serve. Cinder looks the
# volume up for each.
CINDER_ONLY = frozenset((
    'os-migrate_volume', 'os-migrate_volume_completion', 'os-unmanage'))


def find_volume(req, name):
    """Before the 400 of an action tether does not serve: as Cinder
    answers one of its actions on a volume the caller cannot see, a 404
    (VolumeNotFound)."""
    if name in CINDER_ONLY:
        volume_api.get(req.context, req.urlvars['volume_id'])
