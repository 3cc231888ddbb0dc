"""Handlers of /servers/{id}/os-volume_attachments: list, show, attach,
update (swap), detach."""

from oslo_utils import strutils

from tether.api.compute.handlers import servers
from tether.api.compute.schemas import volume_attachments as schema
from tether.api.compute import versions
from tether.api.compute.views import volume_attachments as views
from tether.api import microversion
from tether.api import response_types as rt
from tether.api import responses
from tether.api import validation
from tether.api import wsgi
from tether.compute.api import servers as servers_api
from tether.compute.api import volume_attachments as attachments_api
from tether.compute import exception
from tether.objects import fields
from tether.policies.compute import volume_attachments as policy


def _visible(rows):
    """Attachments a caller sees: from the attach request on, as Nova
    shows its block device mappings (a volume its compute host has yet
    to make of an image, once it is made)."""
    return [r for r in rows if r.volume_id and (
        r.status != fields.BdmStatus.DETACHING or r.attachment_id)]


@rt.declare_each(rt.by_version(
    schema.LIST_RESPONSE,
    (versions.ATTACHMENT_TAG, schema.LIST_RESPONSE_V2_70),
    (versions.DELETE_ON_TERMINATION, schema.LIST_RESPONSE_V2_79),
    (versions.ATTACHMENT_IDS, schema.LIST_RESPONSE_V2_89)))
@validation.query(schema.LIST_QUERY)
def list_volume_attachments(req):
    instance = servers.load_server(req, policy.INDEX)
    rows = _visible(servers_api.volumes_of_instance(req.context, instance))
    params = req.validated_query
    offset = int(params.get('offset', 0))
    rows = rows[offset:]
    if 'limit' in params:
        rows = rows[:int(params['limit'])]
    view = views.VolumeAttachmentView(req)
    return wsgi.json_response(
        {'volumeAttachments': [view.item(instance, r) for r in rows]})


def _row(req, instance):
    volume_id = req.urlvars['volume_id']
    for row in servers_api.volumes_of_instance(req.context, instance):
        if row.volume_id == volume_id:
            return row
    raise exception.VolumeAttachmentNotFound(volume_id=volume_id,
                                             instance_id=instance.uuid)


@rt.declare_each(rt.by_version(
    schema.SHOW_RESPONSE,
    (versions.ATTACHMENT_TAG, schema.SHOW_RESPONSE_V2_70),
    (versions.DELETE_ON_TERMINATION, schema.SHOW_RESPONSE_V2_79),
    (versions.ATTACHMENT_IDS, schema.SHOW_RESPONSE_V2_89)))
@validation.query(validation.IGNORED_QUERY)
def show_volume_attachment(req):
    instance = servers.load_server(req, policy.SHOW)
    return wsgi.json_response({'volumeAttachment': views.VolumeAttachmentView(
        req).item(instance, _row(req, instance))})


@responses.declare(schema.CREATE_RESPONSE, 200, versions.BASE,
                   microversion.before(versions.ATTACHMENT_TAG))
@responses.declare(schema.CREATE_RESPONSE_V2_70, 200,
                   versions.ATTACHMENT_TAG,
                   microversion.before(versions.DELETE_ON_TERMINATION))
@responses.declare(schema.CREATE_RESPONSE_V2_79, 200,
                   versions.DELETE_ON_TERMINATION)
@validation.body(schema.CREATE, versions.BASE,
                 microversion.before(versions.ATTACH_WITH_TAG))
@validation.body(schema.CREATE_V2_49, versions.ATTACH_WITH_TAG,
                 microversion.before(versions.DELETE_ON_TERMINATION))
@validation.body(schema.CREATE_V2_79, versions.DELETE_ON_TERMINATION)
def create_volume_attachment(req):
    instance = servers.load_server(req, policy.CREATE)
    body = req.validated['volumeAttachment']
    row = attachments_api.attach_volume(
        req.context, instance, body['volumeId'], tag=body.get('tag'),
        delete_on_termination=strutils.bool_from_string(
            body.get('delete_on_termination', False)))
    return wsgi.json_response({'volumeAttachment': views.VolumeAttachmentView(
        req).created(instance, row)})


@responses.declare(None, 202)
@validation.query(validation.IGNORED_QUERY)
@validation.body(schema.UPDATE, versions.BASE,
                 microversion.before(versions.ATTACHMENT_UPDATE))
@validation.body(schema.UPDATE_V2_85, versions.ATTACHMENT_UPDATE)
def update_volume_attachment(req):
    """Below 2.85 a PUT is a swap of the volume; from 2.85 an update of
    the attachment, and a swap too where ``volumeId`` is another volume
    (checked against the swap rule only, as Nova does)."""
    body = req.validated['volumeAttachment']
    volume_id = req.urlvars['volume_id']
    only_swap = not microversion.at_least(req, versions.ATTACHMENT_UPDATE)
    swap = only_swap or body['volumeId'] != volume_id
    instance = servers.load_server(req, policy.SWAP if swap
                                   else policy.UPDATE)
    if not only_swap:
        changes = dict(body)
        if 'delete_on_termination' in changes:
            changes['delete_on_termination'] = strutils.bool_from_string(
                changes['delete_on_termination'], strict=True)
        attachments_api.update_attachment(req.context, instance, volume_id,
                                          changes)
    if swap:
        attachments_api.swap_volume(req.context, instance, volume_id)
    return wsgi.empty_response(202)


@responses.declare(None, 202)
@validation.query(validation.IGNORED_QUERY)
def delete_volume_attachment(req):
    instance = servers.load_server(req, policy.DELETE)
    attachments_api.detach_volume(req.context, instance,
                                  req.urlvars['volume_id'])
    return wsgi.empty_response(202)
