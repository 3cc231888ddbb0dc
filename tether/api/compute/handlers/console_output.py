"""Handler of the server action os-getConsoleOutput (POST
/servers/{id}/action): the last lines of the guest's console, as Nova's
console_output."""

from tether.api.compute.handlers import servers
from tether.api.compute.schemas import console_output as schema
from tether.api import responses
from tether.api import validation
from tether.api import wsgi
from tether.compute.api import console_output as console_api
from tether.policies.compute import console_output as policy

# A length past the last line is all of them; this bounds what is sent.
_MAX_LINES = validation.DB_MAX_INT


def _lines(length):
    """The number of lines asked for (None: all)."""
    if length is None:
        return None
    lines = int(length)
    return None if lines < 0 else min(lines, _MAX_LINES)


@responses.declare(schema.GET_CONSOLE_OUTPUT_RESPONSE, 200)
@validation.body(schema.GET_CONSOLE_OUTPUT)
def get_console_output(req):
    instance = servers.load_server(req, policy.BASE)
    length = req.validated['os-getConsoleOutput'].get('length')
    output = console_api.get(req.context, instance, _lines(length))
    return wsgi.json_response({'output': output})


ACTIONS = {
    'os-getConsoleOutput': get_console_output,
}
