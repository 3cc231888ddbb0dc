"""Handlers of /os-keypairs: list, create (import or generate), show,
delete."""

from tether.api.compute.schemas import keypairs as schema
from tether.api.compute import versions
from tether.api.compute.views import keypairs as views
from tether.api import listing
from tether.api import microversion
from tether.api import responses
from tether.api import validation
from tether.api import wsgi
from tether.compute.api import keypairs as keypairs_api
from tether.policies.compute import keypairs as policy


def _user_id(req, given=None):
    """Whose key pairs: ``user_id`` of the body or the query (2.10,
    administrators by policy), else the caller's."""
    if given is None and microversion.at_least(req,
                                               versions.KEYPAIR_USER_ID):
        given = req.validated_query.get('user_id')
        if isinstance(given, list):
            given = given[0]
    return given or req.context.user_id


def _authorize(req, rule, user_id):
    req.context.can(rule, {'user_id': user_id})


@responses.declare(schema.LIST_RESPONSE, 200, versions.BASE,
                   microversion.before(versions.KEYPAIR_TYPE))
@responses.declare(schema.LIST_RESPONSE_V2_2, 200, versions.KEYPAIR_TYPE,
                   microversion.before(versions.KEYPAIR_PAGING))
@responses.declare(schema.LIST_RESPONSE_V2_35, 200, versions.KEYPAIR_PAGING)
@validation.query(schema.ANY_QUERY, versions.BASE,
                  microversion.before(versions.KEYPAIR_USER_ID))
@validation.query(schema.QUERY_V2_10, versions.KEYPAIR_USER_ID,
                  microversion.before(versions.KEYPAIR_PAGING))
@validation.query(schema.LIST_QUERY_V2_35, versions.KEYPAIR_PAGING,
                  microversion.before(versions.STRICT_QUERY))
@validation.query(schema.LIST_QUERY_V2_75, versions.STRICT_QUERY)
def list_keypairs(req):
    user_id = _user_id(req)
    _authorize(req, policy.INDEX, user_id)
    limit = marker = None
    if microversion.at_least(req, versions.KEYPAIR_PAGING):
        params = req.validated_query
        limit = listing.page_size(params)
        marker = params.get('marker')
    keypairs = keypairs_api.get_all(req.context, user_id, limit=limit,
                                    marker=marker)
    view = views.KeypairView(req)
    body = {'keypairs': [view.index(k) for k in keypairs]}
    if limit is not None:
        links = listing.next_links(req, keypairs, limit, lambda k: k.name)
        if links:
            body['keypairs_links'] = links
    return wsgi.json_response(body)


@responses.declare(schema.CREATE_RESPONSE, 200, versions.BASE,
                   microversion.before(versions.KEYPAIR_TYPE))
@responses.declare(schema.CREATE_RESPONSE_V2_2, 201, versions.KEYPAIR_TYPE)
@validation.body(schema.CREATE, versions.BASE,
                 microversion.before(versions.KEYPAIR_TYPE))
@validation.body(schema.CREATE_V2_2, versions.KEYPAIR_TYPE,
                 microversion.before(versions.KEYPAIR_USER_ID))
@validation.body(schema.CREATE_V2_10, versions.KEYPAIR_USER_ID,
                 microversion.before(versions.KEYPAIR_IMPORT_ONLY))
@validation.body(schema.CREATE_V2_92, versions.KEYPAIR_IMPORT_ONLY)
def create_keypair(req):
    body = req.validated['keypair']
    user_id = body.get('user_id') or req.context.user_id
    _authorize(req, policy.CREATE, user_id)
    key_type = body.get('type', 'ssh')
    private_key = None
    if 'public_key' in body:
        keypair = keypairs_api.import_key_pair(
            req.context, user_id, body['name'], body['public_key'],
            key_type)
    else:
        # Only before 2.92, whose schema requires a public key.
        keypair, private_key = keypairs_api.create_key_pair(
            req.context, user_id, body['name'], key_type)
    status = 201 if microversion.at_least(req, versions.KEYPAIR_TYPE) \
        else 200
    return wsgi.json_response(
        {'keypair': views.KeypairView(req).create(keypair, private_key)},
        status=status)


@responses.declare(schema.SHOW_RESPONSE, 200, versions.BASE,
                   microversion.before(versions.KEYPAIR_TYPE))
@responses.declare(schema.SHOW_RESPONSE_V2_2, 200, versions.KEYPAIR_TYPE)
@validation.query(schema.ANY_QUERY, versions.BASE,
                  microversion.before(versions.KEYPAIR_USER_ID))
@validation.query(schema.QUERY_V2_10, versions.KEYPAIR_USER_ID,
                  microversion.before(versions.STRICT_QUERY))
@validation.query(schema.QUERY_V2_75, versions.STRICT_QUERY)
def show_keypair(req):
    user_id = _user_id(req)
    _authorize(req, policy.SHOW, user_id)
    keypair = keypairs_api.get(req.context, user_id,
                               req.urlvars['keypair_name'])
    return wsgi.json_response(
        {'keypair': views.KeypairView(req).show(keypair)})


@responses.declare(None, 202, versions.BASE,
                   microversion.before(versions.KEYPAIR_TYPE))
@responses.declare(None, 204, versions.KEYPAIR_TYPE)
@validation.query(schema.ANY_QUERY, versions.BASE,
                  microversion.before(versions.KEYPAIR_USER_ID))
@validation.query(schema.QUERY_V2_10, versions.KEYPAIR_USER_ID,
                  microversion.before(versions.STRICT_QUERY))
@validation.query(schema.QUERY_V2_75, versions.STRICT_QUERY)
def delete_keypair(req):
    user_id = _user_id(req)
    _authorize(req, policy.DELETE, user_id)
    keypairs_api.delete(req.context, user_id, req.urlvars['keypair_name'])
    return wsgi.empty_response(
        204 if microversion.at_least(req, versions.KEYPAIR_TYPE) else 202)
