"""Handlers of /types: list, show, default, create, update, delete."""

from oslo_utils import strutils

from tether.api import fault
from tether.api import listing
from tether.api import responses
from tether.api import validation
from tether.api.volume.schemas import types as schema
from tether.api.volume.views import types as views
from tether.api import wsgi
from tether.policies.volume import types as policy
from tether.volume.api import types as volume_types


def _one(req, vtype, **shape):
    return wsgi.json_response(
        {'volume_type': views.TypeView(req).show(vtype, **shape)})


def _parse_is_public(params):
    value = params.get('is_public')
    if value is None:
        return True
    if str(value).lower() == 'none':
        return None
    return strutils.bool_from_string(value, strict=True)


@responses.declare(schema.LIST_RESPONSE)
@validation.query(schema.LIST_QUERY)
def list_types(req):
    ctx = req.context
    ctx.can(policy.GET_ALL)
    params = req.validated_query
    sort_keys, sort_dirs = listing.parse_sort(params,
                                              volume_types.SORT_KEYS)
    limit = listing.page_size(params)
    vtypes = volume_types.get_all(
        ctx, is_public=_parse_is_public(params),
        marker=params.get('marker'), limit=limit,
        offset=int(params.get('offset', 0)) or None,
        sort_keys=sort_keys, sort_dirs=sort_dirs)
    view = views.TypeView(req)
    body = {'volume_types': [view.show(t) for t in vtypes]}
    links = listing.next_links_by_id(req, vtypes, limit)
    if links:
        body['volume_type_links'] = links
    return wsgi.json_response(body)


@responses.declare(schema.SHOW_RESPONSE)
@validation.query(schema.NO_QUERY)
def show_type(req):
    ctx = req.context
    ctx.can(policy.GET)
    return _one(req, volume_types.get(ctx, req.urlvars['type_id']))


@responses.declare(schema.SHOW_RESPONSE)
@validation.query(schema.NO_QUERY)
def show_default_type(req):
    """GET /types/default, at every version as in Cinder (the 3.62 API of
    per-project defaults is /default-types, not this)."""
    ctx = req.context
    ctx.can(policy.GET)
    return _one(req, volume_types.get_default(ctx))


@responses.declare(schema.CREATE_RESPONSE)
@validation.body(schema.CREATE)
def create_type(req):
    ctx = req.context
    ctx.can(policy.MANAGE)
    body = req.validated['volume_type']
    is_public = strutils.bool_from_string(body.get(views.IS_PUBLIC, True),
                                          strict=True)
    vtype = volume_types.create(
        ctx, body['name'], description=body.get('description'),
        is_public=is_public, extra_specs=body.get('extra_specs'))
    return _one(req, vtype, qos=False)


@responses.declare(schema.UPDATE_RESPONSE)
@validation.body(schema.UPDATE)
def update_type(req):
    ctx = req.context
    ctx.can(policy.MANAGE)
    body = req.validated['volume_type']
    values = {k: body[k] for k in ('name', 'description') if k in body}
    for key in ('is_public', views.IS_PUBLIC):
        if key in body:
            values['is_public'] = strutils.bool_from_string(body[key],
                                                            strict=True)
    if not values:
        raise fault.HTTPError(400, 'The volume_type names nothing to '
                                   'change: give name, description or '
                                   'is_public.')
    vtype = volume_types.update(ctx, req.urlvars['type_id'], values)
    return _one(req, vtype, qos=False, access=False)


@responses.declare(None, 202)
@validation.query(schema.NO_QUERY)
def delete_type(req):
    ctx = req.context
    ctx.can(policy.MANAGE)
    volume_types.delete(ctx, req.urlvars['type_id'])
    return wsgi.empty_response(202)
