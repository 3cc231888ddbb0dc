"""Handlers of /attachments: create, list, show, update, delete, complete."""

from oslo_serialization import jsonutils
from oslo_utils import strutils

from tether.api import fault
from tether.api import listing
from tether.api import microversion
from tether.api import responses
from tether.api import validation
from tether.api.volume.schemas import attachments as schema
from tether.api.volume import versions
from tether.api.volume.views import attachments as views
from tether.api import wsgi
from tether.objects import fields
from tether.policies.volume import attachments as policy
from tether.volume.api import attachments as attachments_api
from tether.volume.api import volumes as volume_api

# The connector is stored whole, as JSON, in a TEXT column (64 KiB on
# MySQL).
MAX_CONNECTOR_BYTES = 65535


def _target(attachment):
    return {'project_id': attachment.project_id}


def load_attachment(req, action):
    """The attachment of the URL, after the policy check of ``action``."""
    attachment = attachments_api.get(req.context,
                                     req.urlvars['attachment_id'])
    req.context.can(action, _target(attachment))
    return attachment


def _connector(value):
    if value and len(jsonutils.dumps(value)) > MAX_CONNECTOR_BYTES:
        raise fault.HTTPError(
            400, 'Invalid input for field/attribute attachment/connector: '
                 'it is longer than %d bytes as JSON.' % MAX_CONNECTOR_BYTES)
    return value


def _response(req, attachment):
    return wsgi.json_response(
        {'attachment': views.AttachmentView(req).detail(attachment)})


@microversion.version_window(versions.ATTACHMENTS)
@responses.declare(schema.SHOW_RESPONSE)
@validation.body(schema.CREATE, versions.ATTACHMENTS,
                 microversion.before(versions.ATTACHMENT_MODE))
@validation.body(schema.CREATE_V3_54, versions.ATTACHMENT_MODE)
def create_attachment(req):
    ctx = req.context
    body = req.validated['attachment']
    volume = volume_api.get(ctx, body['volume_uuid'])
    target = {'project_id': volume.project_id}
    ctx.can(policy.CREATE, target)
    if (volume.multiattach and volume.bootable and
            volume.status == fields.VolumeStatus.IN_USE):
        ctx.can(policy.MULTIATTACH_BOOTABLE, target)
    attachment = attachments_api.create(
        ctx, volume, instance_uuid=body.get('instance_uuid'),
        connector=_connector(body.get('connector')), mode=body.get('mode'))
    return _response(req, attachment)


# Query parameter -> column. ``status`` is the attachment's status (upstream
# names no column by it and so always returns an empty list).
_FILTERS = {'id': 'id', 'volume_id': 'volume_id',
            'instance_id': 'instance_uuid', 'status': 'attach_status',
            'attach_status': 'attach_status'}


def _list(req, detail):
    ctx = req.context
    ctx.can(policy.GET_ALL, {'project_id': ctx.project_id})
    params = req.validated_query
    sort_keys, sort_dirs = listing.parse_sort(params,
                                              attachments_api.SORT_KEYS)
    limit = listing.page_size(params)
    filters = {column: params[key] for key, column in _FILTERS.items()
               if key in params}
    attachments = attachments_api.get_all(
        ctx, all_tenants=strutils.bool_from_string(
            params.get('all_tenants', False)),
        project_id=params.get('project_id'), filters=filters,
        marker=params.get('marker'), limit=limit, sort_keys=sort_keys,
        sort_dirs=sort_dirs, offset=int(params.get('offset', 0)))
    view = views.AttachmentView(req)
    render = view.detail if detail else view.summary
    body = {'attachments': [render(a) for a in attachments]}
    links = listing.next_links_by_id(req, attachments, limit)
    if links:
        body['attachments_links'] = links
    return wsgi.json_response(body)


@microversion.version_window(versions.ATTACHMENTS)
@responses.declare(schema.LIST_RESPONSE)
@validation.query(schema.LIST_QUERY)
def list_attachments(req):
    return _list(req, detail=False)


@microversion.version_window(versions.ATTACHMENTS)
@responses.declare(schema.LIST_DETAIL_RESPONSE)
@validation.query(schema.LIST_QUERY)
def list_attachments_detail(req):
    return _list(req, detail=True)


@microversion.version_window(versions.ATTACHMENTS)
@responses.declare(schema.SHOW_RESPONSE)
@validation.query(schema.SHOW_QUERY)
def show_attachment(req):
    attachment = load_attachment(req, policy.GET)
    shared = attachments_api.shared_connections(req.context, attachment)
    return wsgi.json_response({'attachment': views.AttachmentView(
        req).detail(attachment, shared_connections=shared)})


@microversion.version_window(versions.ATTACHMENTS)
@responses.declare(schema.SHOW_RESPONSE)
@validation.body(schema.UPDATE)
def update_attachment(req):
    attachment = load_attachment(req, policy.UPDATE)
    connector = _connector(req.validated['attachment']['connector'])
    return _response(req, attachments_api.update(req.context, attachment,
                                                 connector))


@microversion.version_window(versions.ATTACHMENTS)
@responses.declare(schema.DELETE_RESPONSE)
@validation.query(schema.DELETE_QUERY)
def delete_attachment(req):
    ctx = req.context
    attachment = load_attachment(req, policy.DELETE)
    left, shared = attachments_api.delete(ctx, attachment)
    view = views.AttachmentView(req)
    return wsgi.json_response({
        'attachments': [view.summary(a) for a in left],
        'shared_connections_by_attachment': shared})


@microversion.version_window(versions.ATTACHMENT_COMPLETE)
@responses.declare(None, 204)
@validation.body(schema.COMPLETE)
def complete_attachment(req):
    ctx = req.context
    attachments_api.complete(
        ctx, req.urlvars['attachment_id'],
        authorize=lambda attachment: ctx.can(policy.COMPLETE,
                                             _target(attachment)))
    return wsgi.empty_response(204)
