"""Handlers of /messages (3.3): list, show, delete the user messages of
what failed after a 202."""

from tether.api import listing
from tether.api import microversion
from tether.api import responses
from tether.api import validation
from tether.api.volume.schemas import messages as schema
from tether.api.volume import versions
from tether.api.volume.views import messages as views
from tether.api import wsgi
from tether.policies.volume import messages as policy
from tether.volume.api import messages as message_api


def _load(req, action):
    """The message of the URL (the caller's project's), after the policy
    check of ``action`` on it."""
    msg = message_api.get(req.context, req.urlvars['message_id'])
    req.context.can(action, {'project_id': msg.project_id})
    return msg


@microversion.version_window(versions.MESSAGES)
@responses.declare(schema.LIST_RESPONSE, 200, versions.MESSAGES)
@validation.query(schema.NO_QUERY, versions.MESSAGES,
                  microversion.before(versions.MESSAGES_PAGINATION))
@validation.query(schema.LIST_QUERY_V3_5, versions.MESSAGES_PAGINATION)
def list_messages(req):
    """List the messages (from 3.5: paged, sorted, filtered)."""
    ctx = req.context
    ctx.can(policy.GET_ALL, {'project_id': ctx.project_id})
    params = req.validated_query
    sort_keys, sort_dirs = listing.parse_sort(params, message_api.SORT_KEYS)
    filters = {k: params[k] for k in message_api.FILTERS if k in params}
    body = listing.volume_api_page(
        req, 'messages', message_api, filters,
        lambda m: views.message(req, m), sort_keys, sort_dirs)
    return wsgi.json_response(body)


@microversion.version_window(versions.MESSAGES)
@responses.declare(schema.SHOW_RESPONSE, 200, versions.MESSAGES)
@validation.query(schema.NO_QUERY)
def show_message(req):
    msg = _load(req, policy.GET)
    return wsgi.json_response({'message': views.message(req, msg)})


@microversion.version_window(versions.MESSAGES)
@responses.declare(None, 204, versions.MESSAGES)
@validation.query(schema.NO_QUERY)
def delete_message(req):
    msg = _load(req, policy.DELETE)
    message_api.delete(req.context, msg.id)
    return wsgi.empty_response(204)
