"""Handlers of the access lists of private flavors: list
(/flavors/{flavor_id}/os-flavor-access), and the actions
addTenantAccess and removeTenantAccess of /flavors/{flavor_id}/action."""

from tether.api.compute.schemas import flavor_access as schema
from tether.api.compute import versions
from tether.api import microversion
from tether.api import responses
from tether.api import validation
from tether.api import wsgi
from tether.compute.api import flavor_access as access_api
from tether.policies.compute import flavor_access as policy


def _list(flavorid, projects):
    return wsgi.json_response({'flavor_access': [
        {'flavor_id': flavorid, 'tenant_id': project}
        for project in projects]})


@responses.declare(schema.ACCESS_RESPONSE)
@validation.query(schema.ANY_QUERY)
def list_flavor_access(req):
    ctx = req.context
    ctx.can(policy.BASE, {})
    flavorid = req.urlvars['flavor_id']
    return _list(flavorid, access_api.get_projects(ctx, flavorid))


@responses.declare(schema.ACCESS_RESPONSE)
@validation.body(schema.ADD_TENANT_ACCESS)
def add_tenant_access(req):
    ctx = req.context
    ctx.can(policy.ADD, {})
    flavorid = req.urlvars['flavor_id']
    # Before 2.7 Nova lists a project against a public flavor too.
    projects = access_api.add(
        ctx, flavorid, req.validated['addTenantAccess']['tenant'],
        refuse_public=microversion.at_least(
            req, versions.FLAVOR_ACCESS_PUBLIC_CONFLICT))
    return _list(flavorid, projects)


@responses.declare(schema.ACCESS_RESPONSE)
@validation.body(schema.REMOVE_TENANT_ACCESS)
def remove_tenant_access(req):
    ctx = req.context
    ctx.can(policy.REMOVE, {})
    flavorid = req.urlvars['flavor_id']
    return _list(flavorid, access_api.remove(
        ctx, flavorid, req.validated['removeTenantAccess']['tenant']))


ACTIONS = {
    'addTenantAccess': add_tenant_access,
    'removeTenantAccess': remove_tenant_access,
}
