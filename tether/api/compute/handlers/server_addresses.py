"""Handlers of a server's addresses (``/servers/{id}/ips``,
``/servers/{id}/ips/{network_label}``) and of its encrypted password
(``/servers/{id}/os-server-password``).

tether has no network service: a server is on no network, so its
addresses are an empty map and every network label is one it is not a
member of (Nova's 404). Nor has it a metadata service, where a guest
would post its encrypted password: the password is always empty, and
clearing it has nothing to clear.
"""

from tether.api.compute.handlers import servers
from tether.api.compute.schemas import server_addresses as schema
from tether.api import fault
from tether.api import responses
from tether.api import validation
from tether.api import wsgi
from tether.policies.compute import server_addresses as policy


@responses.declare(schema.IPS_RESPONSE)
@validation.query(schema.QUERY)
def list_server_ips(req):
    servers.load_server(req, policy.IPS_INDEX)
    return wsgi.json_response({'addresses': {}})


@responses.declare(schema.NETWORK_IPS_RESPONSE)
@validation.query(schema.QUERY)
def show_server_ips(req):
    servers.load_server(req, policy.IPS_SHOW)
    raise fault.HTTPError(404, 'Instance is not a member of specified '
                               'network (%s): tether has no networks.'
                          % req.urlvars['network_label'])


@responses.declare(schema.PASSWORD_RESPONSE)
@validation.query(schema.QUERY)
def show_server_password(req):
    servers.load_server(req, policy.PASSWORD_SHOW)
    return wsgi.json_response({'password': ''})


@responses.declare(None, 204)
@validation.query(schema.QUERY)
def clear_server_password(req):
    servers.load_server(req, policy.PASSWORD_CLEAR)
    return wsgi.empty_response(204)
