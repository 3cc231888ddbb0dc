"""Handlers of /os-hypervisors: list, detail, show, and the routes Nova
serves up to a microversion: statistics and uptime (to 2.87, then
uptime is in the hypervisor itself), search and servers (to 2.52, then
``hypervisor_hostname_pattern`` and ``with_servers`` do what they did).

A hypervisor is the node of one tether-compute. Its uptime is worded as
the ``uptime`` command words it, from the boot time and load its host
reported with its last heartbeat (tether.compute.api.hypervisors).
"""

from oslo_utils import strutils

from tether.api.compute.schemas import hypervisors as schema
from tether.api.compute import versions
from tether.api.compute.views import hypervisors as views
from tether.api import fault
from tether.api import listing
from tether.api import microversion
from tether.api import response_types as rt
from tether.api import responses
from tether.api import validation
from tether.api import wsgi
from tether.compute.api import hypervisors as hypervisors_api
from tether.compute.api import services as services_api
from tether.policies.compute import hypervisors as policy


def _with_servers(req):
    # A parameter of 2.53; earlier versions ignore it as unknown.
    if not microversion.at_least(req, versions.SERVICE_UUIDS):
        return False
    value = req.validated_query.get('with_servers', False)
    return strutils.bool_from_string(value, strict=True)


def _list(req, detail):
    ctx = req.context
    ctx.can(policy.LIST_DETAIL if detail else policy.LIST, {})
    # Paging from 2.33, the hostname pattern from 2.53: before, Nova
    # ignores these parameters as unknown ones.
    params = req.validated_query
    pattern = marker = limit = None
    if microversion.at_least(req, versions.HYPERVISOR_PAGING):
        marker = params.get('marker')
        limit = listing.page_size(params)
    if microversion.at_least(req, versions.SERVICE_UUIDS):
        pattern = params.get('hypervisor_hostname_pattern')
    with_servers = _with_servers(req)
    if pattern is not None:
        if 'limit' in params or 'marker' in params:
            raise fault.HTTPError(
                400, 'Paging over hypervisors with the '
                     'hypervisor_hostname_pattern query parameter is not '
                     'supported.')
        limit = None
    found = hypervisors_api.get_all(ctx, hostname_pattern=pattern,
                                    limit=limit, marker=marker)
    if pattern is not None and not found:
        raise fault.HTTPError(404, "No hypervisor matching '%s' could be "
                                   "found." % pattern)
    view = views.HypervisorView(req, with_servers)
    render = view.detail if detail else view.basic
    body = {'hypervisors': [
        render(h, hypervisors_api.instances_on(ctx, h.host)
               if with_servers else None)
        for h in found]}
    links = listing.next_links(req, found, limit,
                               lambda hyp: str(view.id_of(hyp)))
    if links:
        body['hypervisors_links'] = links
    return wsgi.json_response(body)


@rt.declare_each(rt.by_version(
    schema.LIST_RESPONSE,
    (versions.HYPERVISOR_PAGING, schema.LIST_RESPONSE_V2_33),
    (versions.SERVICE_UUIDS, schema.LIST_RESPONSE_V2_53)))
@validation.query(schema.LIST_QUERY, versions.BASE,
                  microversion.before(versions.HYPERVISOR_PAGING))
@validation.query(schema.LIST_QUERY_V2_33, versions.HYPERVISOR_PAGING,
                  microversion.before(versions.SERVICE_UUIDS))
@validation.query(schema.LIST_QUERY_V2_53, versions.SERVICE_UUIDS)
def list_hypervisors(req):
    return _list(req, detail=False)


@rt.declare_each(rt.by_version(
    schema.DETAIL_RESPONSE,
    (versions.CPU_INFO_OBJECT, schema.DETAIL_RESPONSE_V2_28),
    (versions.HYPERVISOR_PAGING, schema.DETAIL_RESPONSE_V2_33),
    (versions.SERVICE_UUIDS, schema.DETAIL_RESPONSE_V2_53),
    (versions.HYPERVISOR_UPTIME, schema.DETAIL_RESPONSE_V2_88)))
@validation.query(schema.LIST_QUERY, versions.BASE,
                  microversion.before(versions.HYPERVISOR_PAGING))
@validation.query(schema.LIST_QUERY_V2_33, versions.HYPERVISOR_PAGING,
                  microversion.before(versions.SERVICE_UUIDS))
@validation.query(schema.LIST_QUERY_V2_53, versions.SERVICE_UUIDS)
def list_hypervisors_detail(req):
    return _list(req, detail=True)


@responses.declare(schema.SHOW_RESPONSE, 200, versions.BASE,
                   microversion.before(versions.CPU_INFO_OBJECT))
@responses.declare(schema.SHOW_RESPONSE_V2_28, 200, versions.CPU_INFO_OBJECT,
                   microversion.before(versions.SERVICE_UUIDS))
@responses.declare(schema.SHOW_RESPONSE_V2_53, 200, versions.SERVICE_UUIDS,
                   microversion.before(versions.HYPERVISOR_UPTIME))
@responses.declare(schema.SHOW_RESPONSE_V2_88, 200,
                   versions.HYPERVISOR_UPTIME)
@validation.query(schema.SHOW_QUERY, versions.BASE,
                  microversion.before(versions.SERVICE_UUIDS))
@validation.query(schema.SHOW_QUERY_V2_53, versions.SERVICE_UUIDS)
def show_hypervisor(req):
    ctx = req.context
    ctx.can(policy.SHOW, {})
    hyp = _hypervisor(req)
    with_servers = _with_servers(req)
    servers = (hypervisors_api.instances_on(ctx, hyp.host) if with_servers
               else None)
    return wsgi.json_response({'hypervisor': views.HypervisorView(
        req, with_servers).detail(hyp, servers)})


def _hypervisor(req):
    """The hypervisor of the URL (an integer id before 2.53: these routes
    end before then, or at 2.87 for uptime, which takes a UUID from
    2.53)."""
    hypervisor_id = req.urlvars['hypervisor_id']
    if microversion.at_least(req, versions.SERVICE_UUIDS):
        if not services_api.is_uuid(hypervisor_id):
            raise fault.HTTPError(400, 'Invalid uuid %s' % hypervisor_id)
    elif not services_api.is_integer_id(hypervisor_id):
        raise fault.HTTPError(404, "Hypervisor with ID '%s' could not be "
                                   "found." % hypervisor_id)
    return hypervisors_api.get(req.context, hypervisor_id)


@microversion.version_window(versions.BASE,
                             microversion.before(versions.HYPERVISOR_UPTIME))
@responses.declare(schema.STATISTICS_RESPONSE)
@validation.query(schema.SHOW_QUERY)
def show_hypervisor_statistics(req):
    req.context.can(policy.STATISTICS, {})
    return wsgi.json_response({
        'hypervisor_statistics': hypervisors_api.statistics(req.context)})


@microversion.version_window(versions.BASE,
                             microversion.before(versions.HYPERVISOR_UPTIME))
@responses.declare(schema.UPTIME_RESPONSE, 200, versions.BASE,
                   microversion.before(versions.SERVICE_UUIDS))
@responses.declare(schema.UPTIME_RESPONSE_V2_53, 200, versions.SERVICE_UUIDS)
@validation.query(schema.SHOW_QUERY)
def show_hypervisor_uptime(req):
    req.context.can(policy.UPTIME, {})
    hyp = _hypervisor(req)
    if not hyp.is_up:
        raise fault.HTTPError(400, 'Compute service of %s is unavailable '
                                   'at this time.' % hyp.host)
    uptime = hypervisors_api.uptime(hyp)
    if uptime is None:
        raise fault.HTTPError(501, 'The compute service of %s has not '
                                   'reported its uptime (it is older than '
                                   'this API).' % hyp.host)
    return wsgi.json_response({
        'hypervisor': views.HypervisorView(req).uptime(hyp, uptime)})


def _matching(req, action):
    req.context.can(action, {})
    pattern = req.urlvars['hypervisor_hostname_pattern']
    found = hypervisors_api.get_all(req.context, hostname_pattern=pattern)
    if not found:
        raise fault.HTTPError(404, "No hypervisor matching '%s' could be "
                                   "found." % pattern)
    return found


@microversion.version_window(versions.BASE,
                             microversion.before(versions.SERVICE_UUIDS))
@responses.declare(schema.SEARCH_RESPONSE)
@validation.query(schema.SHOW_QUERY)
def search_hypervisors(req):
    view = views.HypervisorView(req)
    return wsgi.json_response({'hypervisors': [
        view.basic(h) for h in _matching(req, policy.SEARCH)]})


@microversion.version_window(versions.BASE,
                             microversion.before(versions.SERVICE_UUIDS))
@responses.declare(schema.SERVERS_RESPONSE)
@validation.query(schema.SHOW_QUERY)
def list_hypervisor_servers(req):
    view = views.HypervisorView(req, with_servers=True)
    return wsgi.json_response({'hypervisors': [
        view.basic(h, hypervisors_api.instances_on(req.context, h.host))
        for h in _matching(req, policy.SERVERS)]})
