"""Handlers of /types/{id}/extra_specs and /extra_specs/{key}."""

from tether.api import fault
from tether.api import responses
from tether.api import validation
from tether.api.volume.schemas import type_extra_specs as schema
from tether.api.volume.views import types as views
from tether.api import wsgi
from tether.policies.volume import type_extra_specs as policy
from tether.volume.api import types as volume_types
from tether.volume import exception


def _visible_specs(req):
    specs = volume_types.get_extra_specs(req.context, req.urlvars['type_id'])
    return views.TypeView(req).specs(specs)


@responses.declare(schema.EXTRA_SPECS_RESPONSE)
@validation.query(schema.NO_QUERY)
def list_extra_specs(req):
    req.context.can(policy.INDEX)
    return wsgi.json_response({'extra_specs': _visible_specs(req)})


@responses.declare(schema.EXTRA_SPECS_RESPONSE)
@validation.body(schema.CREATE)
def create_extra_specs(req):
    req.context.can(policy.CREATE)
    specs = volume_types.update_extra_specs(
        req.context, req.urlvars['type_id'], req.validated['extra_specs'])
    return wsgi.json_response({'extra_specs': specs})


@responses.declare(schema.EXTRA_SPEC_RESPONSE)
@validation.query(schema.NO_QUERY)
def show_extra_spec(req):
    req.context.can(policy.SHOW)
    key = req.urlvars['key']
    specs = _visible_specs(req)
    if key not in specs:
        raise exception.VolumeTypeExtraSpecsNotFound(
            volume_type_id=req.urlvars['type_id'], key=key)
    return wsgi.json_response({key: specs[key]})


@responses.declare(schema.EXTRA_SPEC_RESPONSE)
@validation.body(schema.UPDATE)
def update_extra_spec(req):
    req.context.can(policy.UPDATE)
    key = req.urlvars['key']
    if key not in req.validated:
        raise fault.HTTPError(
            400, 'The body must hold the key of the URL, %s, and only it.'
            % key)
    specs = volume_types.update_extra_specs(
        req.context, req.urlvars['type_id'], req.validated)
    return wsgi.json_response(specs)


@responses.declare(None, 202)
@validation.query(schema.NO_QUERY)
def delete_extra_spec(req):
    req.context.can(policy.DELETE)
    volume_types.delete_extra_spec(req.context, req.urlvars['type_id'],
                                   req.urlvars['key'])
    return wsgi.empty_response(202)
