"""Handlers of the server actions suspend and resume (POST
/servers/{id}/action), as Nova's suspend_server."""

from tether.api.compute.handlers import servers
from tether.api.compute.schemas import suspend_server as schema
from tether.api import responses
from tether.api import validation
from tether.api import wsgi
from tether.compute.api import server_actions as actions_api
from tether.policies.compute import suspend_server as policy


@responses.declare(None, 202)
@validation.body(schema.SUSPEND)
def suspend_server(req):
    instance = servers.load_server(req, policy.SUSPEND)
    actions_api.suspend(req.context, instance)
    return wsgi.empty_response(202)


@responses.declare(None, 202)
@validation.body(schema.RESUME)
def resume_server(req):
    instance = servers.load_server(req, policy.RESUME)
    actions_api.resume(req.context, instance)
    return wsgi.empty_response(202)


ACTIONS = {
    'suspend': suspend_server,
    'resume': resume_server,
}
