"""Handlers of the server actions pause and unpause (POST
/servers/{id}/action), as Nova's pause_server."""

from tether.api.compute.handlers import servers
from tether.api.compute.schemas import pause_server as schema
from tether.api import responses
from tether.api import validation
from tether.api import wsgi
from tether.compute.api import server_actions as actions_api
from tether.policies.compute import pause_server as policy


@responses.declare(None, 202)
@validation.body(schema.PAUSE)
def pause_server(req):
    instance = servers.load_server(req, policy.PAUSE)
    actions_api.pause(req.context, instance)
    return wsgi.empty_response(202)


@responses.declare(None, 202)
@validation.body(schema.UNPAUSE)
def unpause_server(req):
    instance = servers.load_server(req, policy.UNPAUSE)
    actions_api.unpause(req.context, instance)
    return wsgi.empty_response(202)


ACTIONS = {
    'pause': pause_server,
    'unpause': unpause_server,
}
