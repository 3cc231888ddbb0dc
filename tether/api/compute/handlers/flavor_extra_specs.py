"""Handlers of /flavors/{flavor_id}/os-extra_specs: list, show a key,
merge (POST), set a key (PUT), delete a key."""

from tether.api.compute.schemas import flavor_extra_specs as schema
from tether.api.compute import versions
from tether.api import fault
from tether.api import microversion
from tether.api import responses
from tether.api import validation
from tether.api import wsgi
from tether.compute.api import flavor_extra_specs as specs_api
from tether.policies.compute import flavor_extra_specs as policy


def _authorize(req, rule):
    ctx = req.context
    ctx.can(rule, {'project_id': ctx.project_id})
    return ctx


def _as_strings(specs, field):
    """The specs with numbers as their decimal strings (Nova keeps
    strings), each at most 255 characters (JSON schema cannot bound the
    length of a number)."""
    out = {}
    for key, value in specs.items():
        if not isinstance(value, str):
            value = str(value)
            if len(value) > 255:
                raise fault.HTTPError(
                    400, 'Invalid input for field/attribute %s/%s. Value: '
                         '%s. It must have at most 255 characters.'
                    % (field, key, value[:300]))
        out[key] = value
    return out


def _validates(req):
    """Nova checks the keys and values it knows from 2.86."""
    return microversion.at_least(req, versions.EXTRA_SPEC_VALIDATION)


@responses.declare(schema.LIST_RESPONSE)
@validation.query(schema.ANY_QUERY)
def list_flavor_extra_specs(req):
    ctx = _authorize(req, policy.INDEX)
    return wsgi.json_response({'extra_specs': specs_api.get_all(
        ctx, req.urlvars['flavor_id'])})


@responses.declare(schema.SHOW_RESPONSE)
@validation.query(schema.ANY_QUERY)
def show_flavor_extra_spec(req):
    ctx = _authorize(req, policy.SHOW)
    key = req.urlvars['flavor_extra_spec_key']
    return wsgi.json_response({key: specs_api.get_key(
        ctx, req.urlvars['flavor_id'], key)})


@responses.declare(schema.CREATE_RESPONSE)
@validation.body(schema.CREATE)
def create_flavor_extra_specs(req):
    ctx = _authorize(req, policy.CREATE)
    specs = req.validated['extra_specs']
    specs_api.update(ctx, req.urlvars['flavor_id'],
                     _as_strings(specs, 'extra_specs'),
                     validate=_validates(req))
    # What was asked, as Nova answers (numbers stay numbers here).
    return wsgi.json_response({'extra_specs': specs})


@responses.declare(schema.UPDATE_RESPONSE)
@validation.body(schema.UPDATE)
def update_flavor_extra_spec(req):
    ctx = _authorize(req, policy.UPDATE)
    key = req.urlvars['flavor_extra_spec_key']
    body = req.validated
    if key not in body:
        raise fault.HTTPError(400, 'Request body and URI mismatch: the '
                                   'body sets %s, the URL names %s.'
                              % (next(iter(body)), key))
    specs_api.update(ctx, req.urlvars['flavor_id'], _as_strings(body, ''),
                     validate=_validates(req))
    return wsgi.json_response(body)


@responses.declare(None, 200)
@validation.query(schema.ANY_QUERY)
def delete_flavor_extra_spec(req):
    ctx = _authorize(req, policy.DELETE)
    specs_api.delete_key(ctx, req.urlvars['flavor_id'],
                         req.urlvars['flavor_extra_spec_key'])
    # 200 without a body, as Nova answers (not 202, nor 204).
    return wsgi.empty_response(200)
