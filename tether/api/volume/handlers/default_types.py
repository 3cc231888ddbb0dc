"""Handlers of projects' default volume types (from 3.62):
PUT, GET and DELETE /default-types/{project_id}, GET /default-types."""

from tether.api import fault
from tether.api import microversion
from tether.api import responses
from tether.api import validation
from tether.api.volume.schemas import default_types as schema
from tether.api.volume import versions
from tether.api.volume.views import default_types as views
from tether.api import wsgi
from tether.policies.volume import default_types as policy
from tether.volume.api import default_types as defaults_api

SINCE = versions.DEFAULT_TYPES


def _target(req, action):
    """The project of the URL, after the policy check of ``action``."""
    project_id = req.urlvars['target_project_id']
    if len(project_id) > 255:
        raise fault.HTTPError(400, 'Invalid project ID: longer than 255 '
                                   'characters.')
    req.context.can(action, {'project_id': project_id})
    return project_id


def _one(default):
    return wsgi.json_response({'default_type': views.show(default)})


@microversion.version_window(SINCE)
@responses.declare(schema.SHOW_RESPONSE)
@validation.body(schema.SET)
def set_default_type(req):
    """Make a type (name or ID) the project's default."""
    project_id = _target(req, policy.SET)
    return _one(defaults_api.put(
        req.context, project_id,
        req.validated['default_type']['volume_type']))


@microversion.version_window(SINCE)
@responses.declare(schema.SHOW_RESPONSE)
@validation.query(schema.NO_QUERY)
def show_default_type(req):
    project_id = _target(req, policy.GET)
    return _one(defaults_api.get(req.context, project_id))


@microversion.version_window(SINCE)
@responses.declare(schema.LIST_RESPONSE)
@validation.query(schema.NO_QUERY)
def list_default_types(req):
    ctx = req.context
    ctx.can(policy.GET_ALL)
    return wsgi.json_response({'default_types': [
        views.show(d) for d in defaults_api.get_all(ctx)]})


@microversion.version_window(SINCE)
@responses.declare(None, 204)
@validation.query(schema.NO_QUERY)
def delete_default_type(req):
    """The project's volumes get the configured default again (204
    whether or not it had one of its own, as in Cinder)."""
    project_id = _target(req, policy.UNSET)
    defaults_api.delete(req.context, project_id)
    return wsgi.empty_response(204)
