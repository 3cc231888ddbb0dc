"""Handlers of /os-simple-tenant-usage: every project's usage
(administrators) and one project's, over a period."""

import dataclasses
import datetime

from oslo_config import cfg
from oslo_utils import strutils
from oslo_utils import timeutils

from tether.api.compute.schemas import simple_tenant_usage as schema
from tether.api.compute import versions
from tether.api import fault
from tether.api import listing
from tether.api import microversion
from tether.api import response_types as rt
from tether.api import validation
from tether.api import wsgi
from tether.compute.api import simple_tenant_usage as usage_api
from tether.policies.compute import simple_tenant_usage as policy

CONF = cfg.CONF

# The formats Nova reads ``start`` and ``end`` in.
_FORMATS = ('%Y-%m-%dT%H:%M:%S', '%Y-%m-%dT%H:%M:%S.%f',
            '%Y-%m-%d %H:%M:%S.%f')


def _first(params, name, default=None):
    value = params.get(name, default)
    return value[0] if isinstance(value, list) else value


def _time(params, name):
    """The naive UTC time of a parameter (now if absent or empty)."""
    text = _first(params, name)
    if not text:
        return timeutils.utcnow()
    for fmt in _FORMATS:
        try:
            return datetime.datetime.strptime(text, fmt)
        except ValueError:
            continue
    raise fault.HTTPError(
        400, 'Invalid input received: Datetime is in invalid format: %s '
             '(give %s).' % (text[:64], ' or '.join(_FORMATS)))


def _period(params):
    start, stop = _time(params, 'start'), _time(params, 'end')
    if not start < stop:
        raise fault.HTTPError(400, 'Invalid start time. The start time '
                                   'cannot occur after the end time.')
    # Nothing is counted beyond now.
    return start, min(stop, timeutils.utcnow())


def _page(req):
    """(limit, marker): Nova's page of at most [DEFAULT] osapi_max_limit
    before 2.40 too."""
    params = req.validated_query
    if not microversion.at_least(req, versions.USAGE_PAGING):
        return CONF.osapi_max_limit, None
    limit = listing.page_size(
        {'limit': _first(params, 'limit')} if 'limit' in params else {})
    return limit, _first(params, 'marker')


def _iso(value):
    return value.isoformat() if value is not None else None


def _render(usage, detailed=True):
    out = dataclasses.asdict(usage)
    out['start'], out['stop'] = _iso(usage.start), _iso(usage.stop)
    if detailed:
        for server in out['server_usages']:
            server['started_at'] = _iso(server['started_at'])
            server['ended_at'] = _iso(server['ended_at'])
    else:
        del out['server_usages']
    return out


def _links(req, servers, limit, key):
    if not microversion.at_least(req, versions.USAGE_PAGING):
        return {}
    links = listing.next_links(req, servers, limit,
                               lambda server: server['instance_id'])
    return {key: links} if links else {}


@rt.declare_each(schema.LIST_RESPONSES)
@validation.query(schema.LIST_QUERY, versions.BASE,
                  microversion.before(versions.USAGE_PAGING))
@validation.query(schema.LIST_QUERY_V2_40, versions.USAGE_PAGING,
                  microversion.before(versions.STRICT_QUERY))
@validation.query(schema.LIST_QUERY_V2_75, versions.STRICT_QUERY)
def list_simple_tenant_usage(req):
    req.context.can(policy.LIST, {})
    params = req.validated_query
    start, stop = _period(params)
    # Nova reads only "1"; openstacksdk (and so "openstack usage list")
    # sends "True", which Nova takes for no: tether reads any boolean.
    detailed = strutils.bool_from_string(_first(params, 'detailed', '0'))
    limit, marker = _page(req)
    usages, servers = usage_api.report(req.context, start, stop,
                                       limit=limit, marker=marker)
    body = {'tenant_usages': [_render(u, detailed) for u in usages]}
    body.update(_links(req, servers, limit, 'tenant_usages_links'))
    return wsgi.json_response(body)


@rt.declare_each(schema.SHOW_RESPONSES)
@validation.query(schema.SHOW_QUERY, versions.BASE,
                  microversion.before(versions.USAGE_PAGING))
@validation.query(schema.SHOW_QUERY_V2_40, versions.USAGE_PAGING,
                  microversion.before(versions.STRICT_QUERY))
@validation.query(schema.SHOW_QUERY_V2_75, versions.STRICT_QUERY)
def show_simple_tenant_usage(req):
    project_id = req.urlvars['tenant_id']
    req.context.can(policy.SHOW, {'project_id': project_id})
    start, stop = _period(req.validated_query)
    limit, marker = _page(req)
    usages, servers = usage_api.report(req.context, start, stop,
                                       project_id=project_id, limit=limit,
                                       marker=marker)
    body = {'tenant_usage': _render(usages[0]) if usages else {}}
    body.update(_links(req, servers, limit, 'tenant_usage_links'))
    return wsgi.json_response(body)
