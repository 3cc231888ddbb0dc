"""Handlers of POST /servers/{id}/action: os-start, os-stop, reboot."""

from tether.api.compute.handlers import servers
from tether.api.compute.schemas import server_actions as schema
from tether.api import fault
from tether.api import microversion
from tether.api import validation
from tether.api import wsgi
from tether.compute.api import server_actions as actions_api
from tether.policies.compute import servers as policy


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


def dispatch(req):
    """Route the action named by the body's only key to its handler."""
    body = validation.parse_json(req)
    if not isinstance(body, dict) or len(body) != 1:
        raise fault.HTTPError(400, 'A server action body is an object with '
                                   'exactly one key, the action name.')
    name = next(iter(body))
    handler = ACTIONS.get(name)
    if handler is None or not microversion.in_window(handler, req.version):
        raise fault.HTTPError(
            400, 'There is no such action: %s (tether serves %s).'
            % (name, ', '.join(sorted(ACTIONS))))
    return handler(req)
