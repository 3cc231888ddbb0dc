"""Handlers of /flavors: list, detail, show, create, update (the
description, 2.55), delete."""

import math

from oslo_utils import strutils

from tether.api.compute.schemas import flavors as schema
from tether.api.compute import versions
from tether.api.compute.views import flavors as views
from tether.api import fault
from tether.api import listing
from tether.api import microversion
from tether.api import responses
from tether.api import validation
from tether.api import wsgi
from tether.compute.api import flavors as compute_flavors
from tether.policies.compute import flavors as policy

# The largest value of a single-precision float column (Nova's limit).
RXTX_FACTOR_MAX = 3.40282e+38


# The windows of a flavor in detail: description (2.55), extra_specs
# (2.61), swap 0 rather than "" (2.75).
_DETAIL_WINDOWS = (
    (versions.BASE, microversion.before(versions.FLAVOR_DESCRIPTION)),
    (versions.FLAVOR_DESCRIPTION,
     microversion.before(versions.FLAVOR_EXTRA_SPECS)),
    (versions.FLAVOR_EXTRA_SPECS, microversion.before(versions.STRICT_QUERY)),
    (versions.STRICT_QUERY, None),
)


def _detailed(schemas, skip=0):
    """Declare the answers of flavors in detail, ``schemas`` one per
    window of _DETAIL_WINDOWS (the first ``skip`` not served)."""
    def decorator(fn):
        for (lo, hi), body in list(zip(_DETAIL_WINDOWS, schemas))[skip:]:
            fn = responses.declare(body, 200, lo, hi)(fn)
        return fn
    return decorator


def _one(req, flavor):
    return wsgi.json_response({'flavor': views.FlavorView(req).detail(flavor)})


def _is_public(value):
    if value is None:
        return True
    if str(value).lower() == 'none':
        return None
    return strutils.bool_from_string(value, strict=True)


def _list(req, detail):
    params = req.validated_query
    limit = listing.page_size(params)
    flavors = compute_flavors.get_all(
        req.context, is_public=_is_public(params.get('is_public')),
        min_memory_mb=(int(params['minRam']) if 'minRam' in params
                       else None),
        min_root_gb=(int(params['minDisk']) if 'minDisk' in params
                     else None),
        sort_key=params.get('sort_key', 'flavorid'),
        sort_dir=params.get('sort_dir', 'asc'),
        limit=limit, marker=params.get('marker'))
    view = views.FlavorView(req)
    body = {'flavors': [view.detail(f) if detail else view.basic(f)
                        for f in flavors]}
    links = listing.next_links(req, flavors, limit,
                               lambda flavor: flavor.flavorid)
    if links:
        body['flavors_links'] = links
    return wsgi.json_response(body)


@responses.declare(schema.LIST_RESPONSE, 200, versions.BASE,
                   microversion.before(versions.FLAVOR_DESCRIPTION))
@responses.declare(schema.LIST_RESPONSE_V2_55, 200,
                   versions.FLAVOR_DESCRIPTION)
@validation.query(schema.LIST_QUERY, versions.BASE,
                  microversion.before(versions.STRICT_QUERY))
@validation.query(schema.LIST_QUERY_V2_75, versions.STRICT_QUERY)
def list_flavors(req):
    return _list(req, detail=False)


@_detailed(schema.DETAIL_RESPONSES)
@validation.query(schema.LIST_QUERY, versions.BASE,
                  microversion.before(versions.STRICT_QUERY))
@validation.query(schema.LIST_QUERY_V2_75, versions.STRICT_QUERY)
def list_flavors_detail(req):
    return _list(req, detail=True)


@_detailed(schema.SHOW_RESPONSES)
@validation.query(schema.ANY_QUERY)
def show_flavor(req):
    return _one(req, compute_flavors.get(req.context,
                                         req.urlvars['flavor_id']))


def _flavorid(value):
    if value is None or isinstance(value, str):
        return value
    flavorid = str(value)
    if len(flavorid) > 255:
        raise fault.HTTPError(
            400, 'Invalid input for field/attribute flavor/id. Value: %s. '
                 'It must have at most 255 characters.' % flavorid[:300])
    return flavorid


def _rxtx_factor(value):
    factor = float(value)
    if not (math.isfinite(factor) and 0 < factor <= RXTX_FACTOR_MAX):
        raise fault.HTTPError(
            400, 'Invalid input for field/attribute flavor/rxtx_factor. '
                 'Value: %s. It must be a number above 0 and at most %s.'
                 % (value, RXTX_FACTOR_MAX))
    return factor


@_detailed(schema.SHOW_RESPONSES)
@validation.body(schema.CREATE, versions.BASE,
                 microversion.before(versions.FLAVOR_DESCRIPTION))
@validation.body(schema.CREATE_V2_55, versions.FLAVOR_DESCRIPTION)
def create_flavor(req):
    ctx = req.context
    ctx.can(policy.CREATE, {})
    body = req.validated['flavor']
    flavor = compute_flavors.create(
        ctx, body['name'], int(body['ram']), int(body['vcpus']),
        root_gb=int(body.get('disk', 0)),
        ephemeral_gb=int(body.get(views.EPHEMERAL, 0)),
        swap=int(body.get('swap', 0)),
        rxtx_factor=_rxtx_factor(body.get('rxtx_factor', 1.0)),
        is_public=strutils.bool_from_string(body.get(views.IS_PUBLIC, True),
                                            strict=True),
        flavorid=_flavorid(body.get('id')),
        description=body.get('description'))
    return _one(req, flavor)


@microversion.version_window(versions.FLAVOR_DESCRIPTION)
@_detailed(schema.SHOW_RESPONSES, skip=1)   # served from 2.55
@validation.body(schema.UPDATE_V2_55, versions.FLAVOR_DESCRIPTION)
def update_flavor(req):
    ctx = req.context
    ctx.can(policy.UPDATE, {})
    return _one(req, compute_flavors.update_description(
        ctx, req.urlvars['flavor_id'],
        req.validated['flavor']['description']))


@responses.declare(None, 202)
@validation.query(schema.ANY_QUERY)
def delete_flavor(req):
    ctx = req.context
    ctx.can(policy.DELETE, {})
    compute_flavors.delete(ctx, req.urlvars['flavor_id'])
    return wsgi.empty_response(202)
