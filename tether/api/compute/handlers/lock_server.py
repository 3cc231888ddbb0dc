"""Handlers of the server actions lock and unlock (POST
/servers/{id}/action), as Nova's lock_server."""

from tether.api.compute.handlers import servers
from tether.api.compute.schemas import lock_server as schema
from tether.api.compute import versions
from tether.api import microversion
from tether.api import responses
from tether.api import validation
from tether.api import wsgi
from tether.compute.api import server_actions as actions_api
from tether.policies.compute import lock_server as policy


@responses.declare(None, 202)
@validation.body(schema.LOCK, versions.BASE,
                 microversion.before(versions.LOCKED_REASON))
@validation.body(schema.LOCK_V2_73, versions.LOCKED_REASON)
def lock_server(req):
    instance = servers.load_server(req, policy.LOCK)
    reason = None
    if microversion.at_least(req, versions.LOCKED_REASON):
        reason = (req.validated['lock'] or {}).get('locked_reason')
    actions_api.lock(req.context, instance, reason)
    return wsgi.empty_response(202)


@responses.declare(None, 202)
@validation.body(schema.UNLOCK)
def unlock_server(req):
    instance = servers.load_server(req, policy.UNLOCK)
    if not actions_api.is_expected_locked_by(req.context, instance):
        # Someone else's lock: an admin's, or a user's of its project
        # unlocked by an admin of another.
        req.context.can(policy.UNLOCK_OVERRIDE, servers.target(instance))
    actions_api.unlock(req.context, instance)
    return wsgi.empty_response(202)


ACTIONS = {
    'lock': lock_server,
    'unlock': unlock_server,
}
