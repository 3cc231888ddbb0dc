"""Handlers of Cinder's legacy attach actions on POST /volumes/{id}/action
(the attachments API replaces them; Cinder still serves them, and so
does tether): os-reserve, os-unreserve, os-begin_detaching,
os-roll_detaching, os-attach, os-detach, os-initialize_connection,
os-terminate_connection, os-force_detach."""

from oslo_serialization import jsonutils

from tether.api import fault
from tether.api import responses
from tether.api import validation
from tether.api.volume.handlers import attachments
from tether.api.volume.handlers import volumes
from tether.api.volume.schemas import legacy_attach as schema
from tether.api import wsgi
from tether.policies.volume import legacy_attach as policy
from tether.volume.api import legacy_attach as legacy_api
from tether.volume.api import legacy_connect as connect_api


@responses.declare(None, 202)
@validation.body(schema.RESERVE)
def reserve(req):
    volume = volumes.load_volume(req, policy.RESERVE)
    legacy_api.reserve(req.context, volume.id)
    return wsgi.empty_response(202)


@responses.declare(None, 202)
@validation.body(schema.UNRESERVE)
def unreserve(req):
    volume = volumes.load_volume(req, policy.UNRESERVE)
    legacy_api.unreserve(req.context, volume.id)
    return wsgi.empty_response(202)


@responses.declare(None, 202)
@validation.body(schema.BEGIN_DETACHING)
def begin_detaching(req):
    volume = volumes.load_volume(req, policy.BEGIN_DETACHING)
    legacy_api.begin_detaching(req.context, volume.id)
    return wsgi.empty_response(202)


@responses.declare(None, 202)
@validation.body(schema.ROLL_DETACHING)
def roll_detaching(req):
    volume = volumes.load_volume(req, policy.ROLL_DETACHING)
    legacy_api.roll_detaching(req.context, volume.id)
    return wsgi.empty_response(202)


@responses.declare(None, 202)
@validation.body(schema.ATTACH)
def attach(req):
    volume = volumes.load_volume(req, policy.ATTACH)
    body = req.validated['os-attach']
    connect_api.attach(req.context, volume.id, body.get('instance_uuid'),
                       body.get('host_name'), body['mountpoint'],
                       body.get('mode', 'rw'))
    return wsgi.empty_response(202)


@responses.declare(None, 202)
@validation.body(schema.DETACH)
def detach(req):
    volume = volumes.load_volume(req, policy.DETACH)
    body = req.validated['os-detach'] or {}
    connect_api.detach(req.context, volume, body.get('attachment_id'))
    return wsgi.empty_response(202)


def _connector(value):
    """The connector, within the attachments API's limit of size."""
    limit = attachments.MAX_CONNECTOR_BYTES
    if value and len(jsonutils.dumps(value)) > limit:
        raise fault.HTTPError(
            400, 'Invalid input for field/attribute connector: it is longer '
                 'than %d bytes as JSON.' % limit)
    return value


@responses.declare(schema.INITIALIZE_CONNECTION_RESPONSE)
@validation.body(schema.INITIALIZE_CONNECTION)
def initialize_connection(req):
    volume = volumes.load_volume(req, policy.INITIALIZE)
    connector = _connector(
        req.validated['os-initialize_connection']['connector'])
    info = connect_api.initialize_connection(req.context, volume, connector)
    info['enforce_multipath'] = bool(connector.get('enforce_multipath',
                                                   False))
    return wsgi.json_response({'connection_info': info})


@responses.declare(None, 202)
@validation.body(schema.TERMINATE_CONNECTION)
def terminate_connection(req):
    volume = volumes.load_volume(req, policy.TERMINATE)
    connect_api.terminate_connection(
        req.context, volume,
        _connector(req.validated['os-terminate_connection']['connector']))
    return wsgi.empty_response(202)


@responses.declare(None, 202)
@validation.body(schema.FORCE_DETACH)
def force_detach(req):
    volume = volumes.load_volume(req, policy.FORCE_DETACH)
    body = req.validated['os-force_detach']
    connect_api.force_detach(req.context, volume,
                             _connector(body.get('connector')),
                             body.get('attachment_id'))
    return wsgi.empty_response(202)


ACTIONS = {
    'os-attach': attach,
    'os-begin_detaching': begin_detaching,
    'os-detach': detach,
    'os-force_detach': force_detach,
    'os-initialize_connection': initialize_connection,
    'os-reserve': reserve,
    'os-roll_detaching': roll_detaching,
    'os-terminate_connection': terminate_connection,
    'os-unreserve': unreserve,
}
