"""Handlers of /os-quota-sets/{project_id}: show (with ``detail``, what
is in use), defaults, update, revert; ``user_id`` names one user of the
project."""

from oslo_utils import strutils

from tether.api.compute.schemas import quota_sets as schema
from tether.api.compute import versions
from tether.api.compute.views import quota_sets as views
from tether.api import fault
from tether.api import microversion
from tether.api import response_types as rt
from tether.api import responses
from tether.api import validation
from tether.api import wsgi
from tether.compute.api import quota_sets as quota_api
from tether.policies.compute import quota_sets as policy


def _project(req, rule):
    """The project of the URL, after the policy check of ``rule``."""
    project_id = req.urlvars['target_project_id']
    if len(project_id) > 255:
        raise fault.HTTPError(400, 'Project ID %s... is not a valid '
                                   'project: longer than 255 characters.'
                              % project_id[:32])
    req.context.can(rule, {'project_id': project_id})
    return project_id


def _user_id(req):
    given = req.validated_query.get('user_id')
    return given[0] if isinstance(given, list) else given


def _query(fn):
    fn = validation.query(schema.QUERY, versions.BASE,
                          microversion.before(versions.STRICT_QUERY))(fn)
    return validation.query(schema.QUERY_V2_75, versions.STRICT_QUERY)(fn)


@rt.declare_each(schema.SHOW_RESPONSES)
@_query
def show_quota_set(req):
    project_id = _project(req, policy.SHOW)
    values = quota_api.get(req.context, project_id, _user_id(req))
    return wsgi.json_response(views.quota_set(req, values, project_id))


@rt.declare_each(schema.DETAIL_RESPONSES)
@_query
def show_quota_set_detail(req):
    project_id = _project(req, policy.DETAIL)
    values = quota_api.get(req.context, project_id, _user_id(req),
                           usage=True)
    return wsgi.json_response(views.quota_set(req, values, project_id))


@rt.declare_each(schema.DEFAULTS_RESPONSES)
@validation.query(schema.DEFAULTS_QUERY)
def show_quota_set_defaults(req):
    project_id = _project(req, policy.DEFAULTS)
    return wsgi.json_response(
        views.quota_set(req, quota_api.defaults(req.context), project_id))


@rt.declare_each(schema.UPDATE_RESPONSES)
@validation.body(schema.UPDATE, versions.BASE,
                 microversion.before(versions.NETWORK_QUOTAS_REMOVED))
@validation.body(schema.UPDATE_V2_36, versions.NETWORK_QUOTAS_REMOVED,
                 microversion.before(versions.PERSONALITY_QUOTAS_REMOVED))
@validation.body(schema.UPDATE_V2_57, versions.PERSONALITY_QUOTAS_REMOVED)
@_query
def update_quota_set(req):
    project_id = _project(req, policy.UPDATE)
    body = dict(req.validated['quota_set'])
    force = strutils.bool_from_string(body.pop('force', False))
    limits = {resource: int(value) for resource, value in body.items()}
    values = quota_api.update(req.context, project_id, limits,
                              user_id=_user_id(req), force=force)
    # As Nova: the limits, without the project's id.
    return wsgi.json_response(views.quota_set(req, values))


@responses.declare(None, 202)
@_query
def delete_quota_set(req):
    project_id = _project(req, policy.DELETE)
    quota_api.revert(req.context, project_id, _user_id(req))
    return wsgi.empty_response(202)
