"""Handlers of /os-aggregates (administrators'): list, create, show,
update, delete, and the actions add_host, remove_host and set_metadata
of /os-aggregates/{aggregate_id}/action."""

from tether.api.compute.schemas import aggregates as schema
from tether.api.compute.views import aggregates as views
from tether.api import fault
from tether.api import response_types as rt
from tether.api import responses
from tether.api import validation
from tether.api import wsgi
from tether.compute.api import aggregates as aggregates_api
from tether.compute import aggregate_exception
from tether.policies.compute import aggregates as policy


def _id(req):
    """The aggregate's integer id of the URL (Nova's 400 for another
    word; a number no row can have is not found)."""
    value = req.urlvars['aggregate_id']
    if not (value.isascii() and value.isdigit()):
        raise fault.HTTPError(400, 'Invalid input for field/attribute id. '
                                   'Value: %s. id must be an integer.'
                              % value[:64])
    if len(value) > 10 or int(value) > validation.DB_MAX_INT:
        raise aggregate_exception.AggregateNotFound(aggregate_id=value[:64])
    return int(value)


def _one(req, aggregate):
    return wsgi.json_response(
        {'aggregate': views.AggregateView(req).show(aggregate)})


@rt.declare_each(schema.LIST_RESPONSES)
@validation.query(schema.ANY_QUERY)
def list_aggregates(req):
    req.context.can(policy.INDEX, {})
    view = views.AggregateView(req)
    return wsgi.json_response({'aggregates': [
        view.show(a) for a in aggregates_api.get_all(req.context)]})


@rt.declare_each(schema.CREATE_RESPONSES)
@validation.body(schema.CREATE)
def create_aggregate(req):
    req.context.can(policy.CREATE, {})
    body = req.validated['aggregate']
    aggregate = aggregates_api.create(req.context, body['name'],
                                      body.get('availability_zone'))
    # Nova's 200, without hosts and metadata.
    return wsgi.json_response(
        {'aggregate': views.AggregateView(req).created(aggregate)})


@rt.declare_each(schema.ONE_RESPONSES)
@validation.query(schema.ANY_QUERY)
def show_aggregate(req):
    req.context.can(policy.SHOW, {})
    return _one(req, aggregates_api.get(req.context, _id(req)))


@rt.declare_each(schema.ONE_RESPONSES)
@validation.body(schema.UPDATE)
def update_aggregate(req):
    req.context.can(policy.UPDATE, {})
    values = dict(req.validated['aggregate'])
    if 'name' in values:
        values['name'] = values['name'].strip()
        if not values['name']:
            raise fault.HTTPError(
                400, 'Invalid input for field/attribute name: an aggregate '
                     'name is not blank.')
    return _one(req, aggregates_api.update(req.context, _id(req), values))


@responses.declare(None, 200)
@validation.query(schema.ANY_QUERY)
def delete_aggregate(req):
    req.context.can(policy.DELETE, {})
    aggregates_api.delete(req.context, _id(req))
    # Nova's 200 with no body.
    return wsgi.empty_response(200)


@rt.declare_each(schema.ONE_RESPONSES)
@validation.body(schema.ADD_HOST)
def add_host(req):
    req.context.can(policy.ADD_HOST, {})
    return _one(req, aggregates_api.add_host(
        req.context, _id(req), req.validated['add_host']['host']))


@rt.declare_each(schema.ONE_RESPONSES)
@validation.body(schema.REMOVE_HOST)
def remove_host(req):
    req.context.can(policy.REMOVE_HOST, {})
    return _one(req, aggregates_api.remove_host(
        req.context, _id(req), req.validated['remove_host']['host']))


@rt.declare_each(schema.ONE_RESPONSES)
@validation.body(schema.SET_METADATA)
def set_metadata(req):
    req.context.can(policy.SET_METADATA, {})
    return _one(req, aggregates_api.set_metadata(
        req.context, _id(req), req.validated['set_metadata']['metadata']))


ACTIONS = {
    'add_host': add_host,
    'remove_host': remove_host,
    'set_metadata': set_metadata,
}
