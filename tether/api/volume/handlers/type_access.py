"""Handlers of private volume types' access lists:
GET /types/{id}/os-volume-type-access and the actions addProjectAccess and
removeProjectAccess (POST /types/{id}/action)."""

from tether.api import responses
from tether.api import validation
from tether.api.volume.schemas import type_access as schema
from tether.api import wsgi
from tether.policies.volume import type_access as policy
from tether.volume.api import type_access as access_api


@responses.declare(schema.LIST_RESPONSE)
@validation.query(schema.NO_QUERY)
def list_type_access(req):
    ctx = req.context
    ctx.can(policy.GET_ALL_FOR_TYPE)
    vtype, projects = access_api.get_projects(ctx, req.urlvars['type_id'])
    return wsgi.json_response({'volume_type_access': [
        {'volume_type_id': vtype.id, 'project_id': project}
        for project in projects]})


@responses.declare(None, 202)
@validation.body(schema.ADD_PROJECT_ACCESS)
def add_project_access(req):
    ctx = req.context
    ctx.can(policy.ADD_PROJECT)
    access_api.add(ctx, req.urlvars['type_id'],
                   req.validated['addProjectAccess']['project'])
    return wsgi.empty_response(202)


@responses.declare(None, 202)
@validation.body(schema.REMOVE_PROJECT_ACCESS)
def remove_project_access(req):
    ctx = req.context
    ctx.can(policy.REMOVE_PROJECT)
    access_api.remove(ctx, req.urlvars['type_id'],
                      req.validated['removeProjectAccess']['project'])
    return wsgi.empty_response(202)


ACTIONS = {
    'addProjectAccess': add_project_access,
    'removeProjectAccess': remove_project_access,
}
