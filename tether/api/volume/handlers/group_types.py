"""Handlers of /group_types (3.11): list, show, default, create, update,
delete, and their group specs."""

from oslo_utils import strutils

from tether.api import fault
from tether.api import listing
from tether.api import microversion
from tether.api import responses
from tether.api import validation
from tether.api.volume.schemas import group_types as schema
from tether.api.volume import versions
from tether.api.volume.views import group_types as views
from tether.api import wsgi
from tether.policies.volume import group_types as policy
from tether.volume.api import group_types as group_types_api
from tether.volume import group_exception


def _one(req, group_type):
    return wsgi.json_response(
        {'group_type': views.GroupTypeView(req).show(group_type)})


def _parse_is_public(params):
    value = params.get('is_public')
    if value is None:
        return True
    if str(value).lower() == 'none':
        return None
    return strutils.bool_from_string(value, strict=True)


@microversion.version_window(versions.GROUP_TYPES)
@responses.declare(schema.LIST_RESPONSE)
@validation.query(schema.LIST_QUERY)
def list_group_types(req):
    ctx = req.context
    ctx.can(policy.GET_ALL)
    params = req.validated_query
    sort_keys, sort_dirs = listing.parse_sort(params,
                                              group_types_api.SORT_KEYS)
    limit = listing.page_size(params)
    found = group_types_api.get_all(
        ctx, is_public=_parse_is_public(params),
        marker=params.get('marker'), limit=limit,
        offset=int(params.get('offset', 0)) or None,
        sort_keys=sort_keys, sort_dirs=sort_dirs)
    view = views.GroupTypeView(req)
    body = {'group_types': [view.show(t) for t in found]}
    links = listing.next_links_by_id(req, found, limit)
    if links:
        body['group_type_links'] = links
    return wsgi.json_response(body)


@microversion.version_window(versions.GROUP_TYPES)
@responses.declare(schema.SHOW_RESPONSE)
@validation.query(schema.NO_QUERY)
def show_group_type(req):
    req.context.can(policy.GET)
    return _one(req, group_types_api.get(req.context,
                                         req.urlvars['group_type_id']))


@microversion.version_window(versions.GROUP_TYPES)
@responses.declare(schema.SHOW_RESPONSE)
@validation.query(schema.NO_QUERY)
def show_default_group_type(req):
    req.context.can(policy.GET)
    return _one(req, group_types_api.get_default(req.context))


@microversion.version_window(versions.GROUP_TYPES)
@responses.declare(schema.SHOW_RESPONSE, 202)
@validation.body(schema.CREATE)
def create_group_type(req):
    ctx = req.context
    ctx.can(policy.CREATE)
    body = req.validated['group_type']
    group_type = group_types_api.create(
        ctx, body['name'], description=body.get('description'),
        is_public=strutils.bool_from_string(body.get('is_public', True),
                                            strict=True),
        group_specs=body.get('group_specs'))
    return wsgi.json_response(
        {'group_type': views.GroupTypeView(req).show(group_type)},
        status=202)


@microversion.version_window(versions.GROUP_TYPES)
@responses.declare(schema.SHOW_RESPONSE)
@validation.body(schema.UPDATE)
def update_group_type(req):
    ctx = req.context
    ctx.can(policy.UPDATE)
    body = req.validated['group_type']
    values = {k: body[k] for k in ('name', 'description')
              if body.get(k) is not None}
    if body.get('is_public') is not None:
        values['is_public'] = strutils.bool_from_string(body['is_public'],
                                                        strict=True)
    if 'name' in values and not values['name'].strip():
        raise fault.HTTPError(400, 'Group type name can not be empty.')
    if not values:
        raise fault.HTTPError(400, 'Specify group type name, description '
                                   'or a combination thereof.')
    return _one(req, group_types_api.update(
        ctx, req.urlvars['group_type_id'], values))


@microversion.version_window(versions.GROUP_TYPES)
@responses.declare(None, 202)
@validation.query(schema.NO_QUERY)
def delete_group_type(req):
    ctx = req.context
    ctx.can(policy.DELETE)
    group_types_api.delete(ctx, req.urlvars['group_type_id'])
    return wsgi.empty_response(202)


# Group specs ---------------------------------------------------------------

@microversion.version_window(versions.GROUP_TYPES)
@responses.declare(schema.SPECS_RESPONSE)
@validation.query(schema.NO_QUERY)
def list_group_specs(req):
    ctx = req.context
    ctx.can(policy.SPEC_GET_ALL)
    specs = group_types_api.get_specs(ctx, req.urlvars['group_type_id'])
    return wsgi.json_response({'group_specs': dict(specs)})


@microversion.version_window(versions.GROUP_TYPES)
@responses.declare(schema.SPECS_RESPONSE, 202)
@validation.body(schema.SPECS_CREATE)
def create_group_specs(req):
    ctx = req.context
    ctx.can(policy.SPEC_CREATE)
    specs = group_types_api.update_specs(
        ctx, req.urlvars['group_type_id'], req.validated['group_specs'])
    return wsgi.json_response({'group_specs': specs}, status=202)


@microversion.version_window(versions.GROUP_TYPES)
@responses.declare(schema.SPEC_RESPONSE)
@validation.query(schema.NO_QUERY)
def show_group_spec(req):
    ctx = req.context
    ctx.can(policy.SPEC_GET)
    type_id, key = req.urlvars['group_type_id'], req.urlvars['key']
    specs = group_types_api.get_specs(ctx, type_id)
    if key not in specs:
        raise group_exception.GroupTypeSpecsNotFound(group_type_id=type_id,
                                                     key=key)
    return wsgi.json_response({key: specs[key]})


@microversion.version_window(versions.GROUP_TYPES)
@responses.declare(schema.SPEC_RESPONSE)
@validation.body(schema.SPEC_UPDATE)
def update_group_spec(req):
    ctx = req.context
    ctx.can(policy.SPEC_UPDATE)
    key, body = req.urlvars['key'], req.validated
    if key not in body:
        raise fault.HTTPError(400, 'Request body and URI mismatch: the body '
                                   'names %s, the URL %s.'
                              % (next(iter(body)), key))
    group_types_api.update_specs(ctx, req.urlvars['group_type_id'], body)
    return wsgi.json_response(body)


@microversion.version_window(versions.GROUP_TYPES)
@responses.declare(None, 202)
@validation.query(schema.NO_QUERY)
def delete_group_spec(req):
    ctx = req.context
    ctx.can(policy.SPEC_DELETE)
    group_types_api.delete_spec(ctx, req.urlvars['group_type_id'],
                                req.urlvars['key'])
    return wsgi.empty_response(202)
