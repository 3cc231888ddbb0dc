"""Handlers of POST /servers/{id}/action: os-start, os-stop, reboot,
os-getConsoleOutput."""

from tether.api import actions
from tether.api.compute.handlers import servers
from tether.api.compute.schemas import server_actions as schema
from tether.api import validation
from tether.api import wsgi
from tether.compute.api import server_actions as actions_api
from tether.policies.compute import console_output as console_policy
from tether.policies.compute import server_actions as policy

# A length past the last line is all of them; this bounds what is sent.
_MAX_LINES = validation.DB_MAX_INT


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


def _lines(length):
    """The number of lines asked for (None: all)."""
    if length is None:
        return None
    lines = int(length)
    return None if lines < 0 else min(lines, _MAX_LINES)


@validation.body(schema.GET_CONSOLE_OUTPUT)
def get_console_output(req):
    instance = servers.load_server(req, console_policy.BASE)
    length = req.validated['os-getConsoleOutput'].get('length')
    output = actions_api.console_output(req.context, instance,
                                        _lines(length))
    return wsgi.json_response({'output': output})


ACTIONS = {
    'os-getConsoleOutput': get_console_output,
    'os-start': start_server,
    'os-stop': stop_server,
    'reboot': reboot_server,
}


dispatch = actions.Dispatcher('server', ACTIONS)
