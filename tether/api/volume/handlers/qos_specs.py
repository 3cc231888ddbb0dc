"""Handlers of /qos-specs: list, show, create, set and unset keys,
delete, and the associations with volume types (Cinder's GET member
actions associate, disassociate, disassociate_all)."""

from oslo_utils import strutils

from tether.api import listing
from tether.api import responses
from tether.api import validation
from tether.api.volume.schemas import qos_specs as schema
from tether.api.volume.views import qos_specs as views
from tether.api import wsgi
from tether.policies.volume import qos_specs as policy
from tether.volume.api import qos_specs as qos_api


def _id(req):
    return req.urlvars['qos_id']


@responses.declare(schema.LIST_RESPONSE)
@validation.query(schema.LIST_QUERY)
def list_qos_specs(req):
    """List QoS specs (filters id, name, consumer; paging and sort)."""
    ctx = req.context
    ctx.can(policy.GET_ALL)
    params = req.validated_query
    sort_keys, sort_dirs = listing.parse_sort(params, qos_api.SORT_KEYS)
    limit = listing.page_size(params)
    found = qos_api.get_all(
        ctx, filters={k: params[k] for k in qos_api.FILTERS if k in params},
        marker=params.get('marker'), limit=limit,
        offset=int(params.get('offset', 0)) or None,
        sort_keys=sort_keys, sort_dirs=sort_dirs)
    body = {'qos_specs': [views.qos_specs(q) for q in found]}
    links = listing.next_links_by_id(req, found, limit)
    if links:
        body['qos_specs_links'] = links
    return wsgi.json_response(body)


@responses.declare(schema.SHOW_RESPONSE)
@validation.query(schema.NO_QUERY)
def show_qos_specs(req):
    ctx = req.context
    ctx.can(policy.GET)
    return wsgi.json_response(views.show(req, qos_api.get(ctx, _id(req))))


@responses.declare(schema.SHOW_RESPONSE)
@validation.body(schema.CREATE)
def create_qos_specs(req):
    """Create QoS specs: a name, a consumer (back-end unless given) and
    any keys."""
    ctx = req.context
    ctx.can(policy.CREATE)
    specs = dict(req.validated['qos_specs'])
    name = specs.pop('name').strip()
    return wsgi.json_response(views.show(req,
                                         qos_api.create(ctx, name, specs)))


@responses.declare(schema.SET_RESPONSE)
@validation.body(schema.SET)
def update_qos_specs(req):
    """Create or replace keys (``consumer`` among them); the answer
    repeats them."""
    ctx = req.context
    ctx.can(policy.UPDATE)
    specs = req.validated['qos_specs']
    qos_api.update(ctx, _id(req), specs)
    return wsgi.json_response({'qos_specs': dict(specs)})


@responses.declare(None, 202)
@validation.query(schema.DELETE_QUERY)
def delete_qos_specs(req):
    """Delete QoS specs; with ``force`` also while types have them."""
    ctx = req.context
    ctx.can(policy.DELETE)
    force = strutils.bool_from_string(
        req.validated_query.get('force', False), strict=True)
    qos_api.delete(ctx, _id(req), force=force)
    return wsgi.empty_response(202)


@responses.declare(None, 202)
@validation.body(schema.UNSET)
def delete_qos_specs_keys(req):
    """Remove keys: all of them, or none if the specs lack one."""
    ctx = req.context
    ctx.can(policy.DELETE)
    qos_api.delete_keys(ctx, _id(req), req.validated['keys'])
    return wsgi.empty_response(202)


@responses.declare(schema.ASSOCIATIONS_RESPONSE)
@validation.query(schema.NO_QUERY)
def list_qos_associations(req):
    """The volume types that have the QoS specs."""
    ctx = req.context
    ctx.can(policy.GET_ALL)
    return wsgi.json_response(
        views.associations(qos_api.associations(ctx, _id(req))))


@responses.declare(None, 202)
@validation.query(schema.TYPE_QUERY)
def associate_qos_specs(req):
    """Give volume type ``vol_type_id`` the QoS specs (a type has one)."""
    ctx = req.context
    ctx.can(policy.UPDATE)
    qos_api.associate(ctx, _id(req), req.validated_query['vol_type_id'])
    return wsgi.empty_response(202)


@responses.declare(None, 202)
@validation.query(schema.TYPE_QUERY)
def disassociate_qos_specs(req):
    """Take the QoS specs from volume type ``vol_type_id``."""
    ctx = req.context
    ctx.can(policy.UPDATE)
    qos_api.disassociate(ctx, _id(req), req.validated_query['vol_type_id'])
    return wsgi.empty_response(202)


@responses.declare(None, 202)
@validation.query(schema.NO_QUERY)
def disassociate_all_qos_specs(req):
    """Take the QoS specs from every volume type."""
    ctx = req.context
    ctx.can(policy.UPDATE)
    qos_api.disassociate_all(ctx, _id(req))
    return wsgi.empty_response(202)
