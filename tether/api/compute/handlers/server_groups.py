"""Handlers of /os-server-groups: list, create, show, delete."""

from tether.api.compute.schemas import server_groups as schema
from tether.api.compute import versions
from tether.api.compute.views import server_groups as views
from tether.api import listing
from tether.api import microversion
from tether.api import response_types as rt
from tether.api import responses
from tether.api import validation
from tether.api import wsgi
from tether.compute.api import server_groups as groups_api
from tether.policies.compute import server_groups as policy


def _first(value):
    """A query value given once, or the first of those given twice."""
    return value[0] if isinstance(value, list) else value


@rt.declare_each(schema.LIST_RESPONSES)
@validation.query(schema.LIST_QUERY, versions.BASE,
                  microversion.before(versions.STRICT_QUERY))
@validation.query(schema.LIST_QUERY_V2_75, versions.STRICT_QUERY)
def list_server_groups(req):
    ctx = req.context
    ctx.can(policy.INDEX, {'project_id': ctx.project_id})
    params = req.validated_query
    project_id = ctx.project_id
    # As Nova: all_projects is an administrator's (by policy), and is
    # ignored for anyone else, who gets their own project's groups.
    if 'all_projects' in params and ctx.is_admin:
        ctx.can(policy.INDEX_ALL_PROJECTS, {'project_id': ctx.project_id})
        project_id = None
    # As Nova pages them: a limit of 0 is the largest page.
    limit = listing.page_size(
        {'limit': _first(params['limit'])} if 'limit' in params else {}
    ) or listing.page_size({})
    groups = groups_api.get_all(ctx, project_id, limit=limit,
                                offset=int(_first(params.get('offset',
                                                             0))))
    view = views.ServerGroupView(req)
    return wsgi.json_response(
        {'server_groups': [view.show(g) for g in groups]})


@rt.declare_each(schema.ONE_RESPONSES)
@validation.body(schema.CREATE, versions.BASE,
                 microversion.before(versions.SOFT_AFFINITY))
@validation.body(schema.CREATE_V2_15, versions.SOFT_AFFINITY,
                 microversion.before(versions.SERVER_GROUP_POLICY))
@validation.body(schema.CREATE_V2_64, versions.SERVER_GROUP_POLICY)
def create_server_group(req):
    ctx = req.context
    ctx.can(policy.CREATE, {'project_id': ctx.project_id})
    body = req.validated['server_group']
    if 'policy' in body:
        policy_name, rules = body['policy'], body.get('rules')
    else:
        policy_name, rules = body['policies'][0], None
    group = groups_api.create(ctx, body['name'], policy_name, rules)
    return wsgi.json_response(
        {'server_group': views.ServerGroupView(req).show(group)})


def _load(req, rule):
    group = groups_api.get(req.context, req.urlvars['server_group_id'])
    req.context.can(rule, {'project_id': group.project_id})
    return group


@rt.declare_each(schema.ONE_RESPONSES)
@validation.query(schema.SHOW_QUERY)
def show_server_group(req):
    group = _load(req, policy.SHOW)
    return wsgi.json_response(
        {'server_group': views.ServerGroupView(req).show(group)})


@responses.declare(None, 204)
@validation.query(schema.SHOW_QUERY)
def delete_server_group(req):
    groups_api.delete(req.context, _load(req, policy.DELETE))
    return wsgi.empty_response(204)
