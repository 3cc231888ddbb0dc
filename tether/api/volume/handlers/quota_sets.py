"""Handlers of /os-quota-sets/{project_id}: show, defaults, update, revert."""

from oslo_utils import strutils

from tether.api import fault
from tether.api import responses
from tether.api import validation
from tether.api.volume.schemas import quota_sets as schema
from tether.api import wsgi
from tether.policies.volume import quota_sets as policy
from tether.volume.api import quota_sets as quota_api


def _target(req, action):
    """The project of the URL, after the policy check of ``action``."""
    project_id = req.urlvars['target_project_id']
    if len(project_id) > 255:
        raise fault.HTTPError(400, 'Invalid project ID: longer than 255 '
                                   'characters.')
    req.context.can(action, {'project_id': project_id})
    return project_id


def _body(project_id, values):
    return {'quota_set': dict(values, id=project_id)}


@responses.declare(schema.SHOW_RESPONSE)
@validation.query(schema.SHOW_QUERY)
def show_quota_set(req):
    project_id = _target(req, policy.SHOW)
    usage = strutils.bool_from_string(req.validated_query.get('usage',
                                                              False))
    values = quota_api.get(req.context, project_id, usage=usage)
    return wsgi.json_response(_body(project_id, values))


@responses.declare(schema.DEFAULTS_RESPONSE)
@validation.query(schema.NO_QUERY)
def show_defaults(req):
    project_id = _target(req, policy.SHOW)
    return wsgi.json_response(_body(project_id,
                                    quota_api.defaults(req.context)))


def _limits(quota_set):
    limits = {}
    for key, value in quota_set.items():
        if key in schema.NON_QUOTA_KEYS:
            continue
        limit = int(value)
        if limit > validation.DB_MAX_INT:
            raise fault.HTTPError(
                400, 'Invalid input for field/attribute quota_set/%s. '
                     'Value: %s. It is greater than the maximum of %d.'
                % (key, value, validation.DB_MAX_INT))
        limits[key] = limit
    return limits


@responses.declare(schema.UPDATE_RESPONSE)
@validation.body(schema.UPDATE)
def update_quota_set(req):
    project_id = _target(req, policy.UPDATE)
    body = req.validated
    limits = _limits(body['quota_set'])
    if not limits:
        raise fault.HTTPError(400, 'The quota_set names no limit to set.')
    skip = strutils.bool_from_string(body.get('skip_validation', False))
    values = quota_api.update(req.context, project_id, limits,
                              skip_validation=skip)
    # As Cinder: the limits, without the project's id.
    return wsgi.json_response({'quota_set': values})


@responses.declare(None, 200)
@validation.query(schema.NO_QUERY)
def delete_quota_set(req):
    project_id = _target(req, policy.DELETE)
    quota_api.revert(req.context, project_id)
    return wsgi.empty_response(200)
