"""Handlers of volume transfers: create, list, show, accept, delete,
under Cinder's two paths: ``/os-volume-transfer`` (every version; its
create takes no ``no_snapshots``, as Cinder's) and ``/volume-transfers``
(from 3.55)."""

from oslo_utils import strutils

from tether.api import listing
from tether.api import microversion
from tether.api import response_types as rt
from tether.api import responses
from tether.api import validation
from tether.api.volume.schemas import transfers as schema
from tether.api.volume import versions
from tether.api.volume.views import transfers as views
from tether.api import wsgi
from tether.policies.volume import transfers as policy
from tether.volume.api import transfers as transfer_api
from tether.volume.api import volumes as volume_api

NEW_PATH = versions.TRANSFER_WITH_SNAPSHOTS


def _from(version, windows):
    """The windows of ``rt.by_version`` that a route served from
    ``version`` answers in, the first of them starting there."""
    out = []
    for schema_, lo, hi in windows:
        if hi is not None and microversion.parse(hi) < \
                microversion.parse(version):
            continue
        if lo is None or microversion.parse(lo) < \
                microversion.parse(version):
            lo = version
        out.append((schema_, lo, hi))
    return out


def _load(req, action):
    """The transfer of the URL, after the policy check of ``action``."""
    transfer = transfer_api.get(req.context, req.urlvars['transfer_id'])
    req.context.can(action, {'project_id': transfer.source_project_id})
    return transfer


def _create(req, no_snapshots):
    ctx = req.context
    body = req.validated['transfer']
    volume = volume_api.get(ctx, body['volume_id'])
    ctx.can(policy.CREATE, {'project_id': volume.project_id,
                            'user_id': volume.user_id})
    name = body.get('name')
    transfer, auth_key = transfer_api.create(
        ctx, volume, name=name.strip() if name is not None else None,
        no_snapshots=no_snapshots)
    return wsgi.json_response(
        {'transfer': views.TransferView(req).create(transfer, auth_key)},
        status=202)


@rt.declare_each(schema.CREATE_RESPONSES, 202)
@validation.body(schema.CREATE)
def create_transfer_legacy(req):
    """Offer a volume to another project (its snapshots go with it)."""
    return _create(req, no_snapshots=False)


@microversion.version_window(NEW_PATH)
@rt.declare_each(_from(NEW_PATH, schema.CREATE_RESPONSES), 202)
@validation.body(schema.CREATE_V3_55)
def create_transfer(req):
    """Offer a volume to another project, with its snapshots or not."""
    return _create(req, strutils.bool_from_string(
        req.validated['transfer'].get('no_snapshots', False)))


def _list(req, detail, newest_first):
    ctx = req.context
    ctx.can(policy.GET_ALL, {'project_id': ctx.project_id})
    params = req.validated_query
    sort_keys, sort_dirs = listing.parse_sort(
        params, transfer_api.SORT_KEYS,
        default_dir='desc' if newest_first else 'asc')
    filters = {key: params[key] for key in ('name', 'volume_id')
               if key in params}
    view = views.TransferView(req)
    return wsgi.json_response(listing.volume_api_page(
        req, 'transfers', transfer_api, filters,
        view.detail if detail else view.summary, sort_keys, sort_dirs))


@responses.declare(schema.LIST_RESPONSE)
@validation.query(schema.LIST_QUERY)
def list_transfers_legacy(req):
    """List the project's volume transfers."""
    return _list(req, detail=False, newest_first=False)


@rt.declare_each(schema.LIST_DETAIL_RESPONSES)
@validation.query(schema.LIST_QUERY)
def list_transfers_detail_legacy(req):
    """List the project's volume transfers with details."""
    return _list(req, detail=True, newest_first=False)


@microversion.version_window(NEW_PATH)
@responses.declare(schema.LIST_RESPONSE, 200, NEW_PATH)
@validation.query(schema.LIST_QUERY)
def list_transfers(req):
    """List the project's volume transfers."""
    return _list(req, detail=False, newest_first=microversion.at_least(
        req, versions.TRANSFER_PAGINATION))


@microversion.version_window(NEW_PATH)
@rt.declare_each(_from(NEW_PATH, schema.LIST_DETAIL_RESPONSES))
@validation.query(schema.LIST_QUERY)
def list_transfers_detail(req):
    """List the project's volume transfers with details."""
    return _list(req, detail=True, newest_first=microversion.at_least(
        req, versions.TRANSFER_PAGINATION))


def _show(req):
    transfer = _load(req, policy.GET)
    return wsgi.json_response(
        {'transfer': views.TransferView(req).detail(transfer)})


@rt.declare_each(schema.SHOW_RESPONSES)
@validation.query(schema.NO_QUERY)
def show_transfer_legacy(req):
    """Show a volume transfer."""
    return _show(req)


@microversion.version_window(NEW_PATH)
@rt.declare_each(_from(NEW_PATH, schema.SHOW_RESPONSES))
@validation.query(schema.NO_QUERY)
def show_transfer(req):
    """Show a volume transfer."""
    return _show(req)


def _accept(req):
    ctx = req.context
    # Into the caller's own project: the transfer is another's.
    ctx.can(policy.ACCEPT, {'project_id': ctx.project_id,
                            'user_id': ctx.user_id})
    transfer = transfer_api.accept(ctx, req.urlvars['transfer_id'],
                                   req.validated['accept']['auth_key'])
    return wsgi.json_response(
        {'transfer': views.TransferView(req).summary(transfer)}, status=202)


@responses.declare(schema.ACCEPT_RESPONSE, 202)
@validation.body(schema.ACCEPT)
def accept_transfer_legacy(req):
    """Take the volume of a transfer into the caller's project."""
    return _accept(req)


@microversion.version_window(NEW_PATH)
@responses.declare(schema.ACCEPT_RESPONSE, 202, NEW_PATH)
@validation.body(schema.ACCEPT)
def accept_transfer(req):
    """Take the volume of a transfer into the caller's project."""
    return _accept(req)


def _delete(req):
    transfer = _load(req, policy.DELETE)
    transfer_api.delete(req.context, transfer.id)
    return wsgi.empty_response(202)


@responses.declare(None, 202)
@validation.query(schema.NO_QUERY)
def delete_transfer_legacy(req):
    """Cancel a volume transfer."""
    return _delete(req)


@microversion.version_window(NEW_PATH)
@responses.declare(None, 202, NEW_PATH)
@validation.query(schema.NO_QUERY)
def delete_transfer(req):
    """Cancel a volume transfer."""
    return _delete(req)
