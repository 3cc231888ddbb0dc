"""Handlers of /servers/{id}/os-instance-actions: list, show."""

from tether.api.compute.schemas import instance_actions as schema
from tether.api.compute import versions
from tether.api.compute.views import instance_actions as views
from tether.api import fault
from tether.api import listing
from tether.api import microversion
from tether.api import query
from tether.api import response_types as rt
from tether.api import responses
from tether.api import validation
from tether.api import wsgi
from tether.compute.api import instance_actions as actions_api
from tether.policies.compute import instance_actions as policy


def _load(req, rule):
    """The server of the URL (deleted ones too from 2.21), after the
    policy check of ``rule``; and the target of further checks."""
    ctx = req.context
    instance = actions_api.get_instance(
        ctx, req.urlvars['server_id'],
        include_deleted=microversion.at_least(
            req, versions.DELETED_SERVER_ACTIONS))
    target = {'project_id': instance.project_id}
    ctx.can(rule, target)
    return instance, target


@responses.declare(schema.LIST_RESPONSE, 200, versions.BASE,
                   microversion.before(versions.INSTANCE_ACTION_PAGING))
@responses.declare(schema.LIST_RESPONSE_V2_58, 200,
                   versions.INSTANCE_ACTION_PAGING)
@validation.query(schema.ANY_QUERY, versions.BASE,
                  microversion.before(versions.INSTANCE_ACTION_PAGING))
@validation.query(schema.LIST_QUERY_V2_58, versions.INSTANCE_ACTION_PAGING,
                  microversion.before(versions.CHANGES_BEFORE))
@validation.query(schema.LIST_QUERY_V2_66, versions.CHANGES_BEFORE)
def list_instance_actions(req):
    instance, _target = _load(req, policy.LIST)
    limit = since = before = marker = None
    paged = microversion.at_least(req, versions.INSTANCE_ACTION_PAGING)
    if paged:
        # Paging and filters from 2.58 (changes-before from 2.66); before,
        # Nova ignores these parameters as unknown ones.
        params = req.validated_query
        since = query.iso_time(params, 'changes-since')
        before = query.iso_time(params, 'changes-before')
        if since and before and since > before:
            raise fault.HTTPError(400, 'The value of changes-since must be '
                                       'less than or equal to '
                                       'changes-before.')
        marker = params.get('marker')
        limit = listing.page_size(params)
    actions = actions_api.get_actions(
        req.context, instance, limit=limit, marker=marker,
        changes_since=since, changes_before=before)
    body = {'instanceActions': [views.action(req, a) for a in actions]}
    links = paged and listing.next_links(
        req, actions, limit, lambda action: action.request_id)
    if links:
        body['links'] = links
    return wsgi.json_response(body)


@rt.declare_each(rt.by_version(
    schema.SHOW_RESPONSE,
    (versions.VOLUME_EXTENDED_EVENT, schema.SHOW_RESPONSE_V2_51),
    (versions.INSTANCE_ACTION_PAGING, schema.SHOW_RESPONSE_V2_58),
    (versions.EVENT_HOST, schema.SHOW_RESPONSE_V2_62),
    (versions.EVENT_DETAILS, schema.SHOW_RESPONSE_V2_84)))
@validation.query(schema.ANY_QUERY)
def show_instance_action(req):
    ctx = req.context
    instance, target = _load(req, policy.SHOW)
    action, events = actions_api.get_action(ctx, instance,
                                            req.urlvars['request_id'])
    out = views.action(req, action)
    # Whoever passes the events rule sees every event with its traceback
    # (and host from 2.62); from 2.51 others see the events without them.
    full = ctx.can(policy.EVENTS, target, fatal=False)
    if full or microversion.at_least(req, versions.VOLUME_EXTENDED_EVENT):
        host_id = microversion.at_least(req, versions.EVENT_HOST)
        details = (microversion.at_least(req, versions.EVENT_DETAILS) and
                   ctx.can(policy.EVENTS_DETAILS, target, fatal=False))
        project_id = action.project_id or instance.project_id
        out['events'] = [views.event(e, project_id, traceback=full,
                                     host=full and host_id, host_id=host_id,
                                     details=details)
                         for e in events]
    return wsgi.json_response({'instanceAction': out})
