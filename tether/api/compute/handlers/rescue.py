"""Handlers of the server actions rescue and unrescue (POST
/servers/{id}/action), as Nova's rescue."""

from tether.api.compute.handlers import servers
from tether.api.compute.schemas import rescue as schema
from tether.api.compute import versions
from tether.api import microversion
from tether.api import responses
from tether.api import validation
from tether.api import wsgi
from tether.compute.api import admin_password
from tether.compute.api import rescue as rescue_api
from tether.policies.compute import rescue as policy


@responses.declare(schema.RESCUE_RESPONSE, 200)
@validation.body(schema.RESCUE)
def rescue_server(req):
    instance = servers.load_server(req, policy.RESCUE)
    body = req.validated['rescue'] or {}
    rescue_api.rescue(
        req.context, instance, body.get('rescue_image_ref'),
        allow_bfv_rescue=microversion.at_least(req, versions.RESCUE_BFV))
    admin_pass = admin_password.for_response(body.get('adminPass'))
    return wsgi.json_response(
        {} if admin_pass is None else {'adminPass': admin_pass})


@responses.declare(None, 202)
@validation.body(schema.UNRESCUE)
def unrescue_server(req):
    instance = servers.load_server(req, policy.UNRESCUE)
    rescue_api.unrescue(req.context, instance)
    return wsgi.empty_response(202)


ACTIONS = {
    'rescue': rescue_server,
    'unrescue': unrescue_server,
}
