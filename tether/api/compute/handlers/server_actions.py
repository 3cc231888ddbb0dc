"""Handlers of POST /servers/{id}/action: os-start, os-stop, reboot."""

from tether.api import actions
from tether.api.compute.handlers import servers
from tether.api.compute.schemas import server_actions as schema
from tether.api import validation
from tether.api import wsgi
from tether.compute.api import server_actions as actions_api
from tether.policies.compute import server_actions as policy


@validation.body(schema.START)
def start_server(req):
    instance = servers.load_server(req, policy.START)
    actions_api.start(req.context, instance)
    return wsgi.empty_response(202)


@validation.body(schema.STOP)
def stop_server(req):
    instance = servers.load_server(req, policy.STOP)
    actions_api.stop(req.context, instance)
    return wsgi.empty_response(202)


@validation.body(schema.REBOOT)
def reboot_server(req):
    instance = servers.load_server(req, policy.REBOOT)
    actions_api.reboot(req.context, instance,
                       req.validated['reboot']['type'].upper())
    return wsgi.empty_response(202)


ACTIONS = {
    'os-start': start_server,
    'os-stop': stop_server,
    'reboot': reboot_server,
}


dispatch = actions.Dispatcher('server', ACTIONS)
