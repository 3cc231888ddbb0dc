"""Handlers of GET /scheduler-stats/get_pools and GET
/capabilities/{host_name}: what the volume backends report."""

from oslo_utils import strutils

from tether.api import microversion
from tether.api import responses
from tether.api import validation
from tether.api.volume.schemas import scheduler_stats as schema
from tether.api.volume import versions
from tether.api import wsgi
from tether.policies.volume import scheduler_stats as policy
from tether.volume.api import scheduler_stats as stats_api


@responses.declare(schema.POOLS_RESPONSE)
@validation.query(schema.POOLS_QUERY, versions.BASE,
                  microversion.before(versions.POOL_FILTER))
@validation.query(schema.POOLS_QUERY_V3_28, versions.POOL_FILTER,
                  microversion.before(versions.POOL_TYPE_FILTER))
@validation.query(schema.POOLS_QUERY_V3_35, versions.POOL_TYPE_FILTER)
def get_pools(req):
    """The pools of the live volume backends (with ``detail``, their
    capabilities; from 3.28 of one ``name``, from 3.35 those a
    ``volume_type`` may use)."""
    ctx = req.context
    ctx.can(policy.GET_POOLS)
    params = req.validated_query
    detail = strutils.bool_from_string(params.get('detail', False),
                                       strict=True)
    pools = stats_api.get_pools(ctx, name=params.get('name'),
                                volume_type=params.get('volume_type'))
    body = []
    for name, caps in pools:
        body.append({'name': name, 'capabilities': caps} if detail
                    else {'name': name})
    return wsgi.json_response({'pools': body})


@responses.declare(schema.CAPABILITIES_RESPONSE)
@validation.query(schema.NO_QUERY)
def show_capabilities(req):
    """The capabilities of the backend ``host@backend`` (a pool's name
    names its backend)."""
    ctx = req.context
    ctx.can(policy.CAPABILITIES)
    return wsgi.json_response(
        stats_api.get_capabilities(ctx, req.urlvars['host_name']))
