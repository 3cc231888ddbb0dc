"""Handlers of /os-services: list, update, delete (compute services).

Before 2.53, Nova changed a service with ``PUT /os-services/enable``,
``disable``, ``disable-log-reason`` and ``force-down``; tether serves the
2.53 form only (``PUT /os-services/{service_uuid}``), which openstacksdk
and the openstack CLI use at tether's microversions.
"""

from oslo_utils import strutils

from tether.api.compute.schemas import services as schema
from tether.api.compute import versions
from tether.api.compute.views import services as views
from tether.api import fault
from tether.api import microversion
from tether.api import responses
from tether.api import validation
from tether.api import wsgi
from tether.compute.api import services as services_api
from tether.policies.compute import services as policy


@responses.declare(schema.LIST_RESPONSE, 200, versions.BASE,
                   microversion.before(versions.FORCED_DOWN))
@responses.declare(schema.LIST_RESPONSE_V2_11, 200, versions.FORCED_DOWN,
                   microversion.before(versions.SERVICE_UUIDS))
@responses.declare(schema.LIST_RESPONSE_V2_53, 200, versions.SERVICE_UUIDS)
@validation.query(schema.LIST_QUERY, versions.BASE,
                  microversion.before(versions.STRICT_QUERY))
@validation.query(schema.LIST_QUERY_V2_75, versions.STRICT_QUERY)
def list_services(req):
    ctx = req.context
    ctx.can(policy.LIST, {})
    params = req.validated_query
    services = services_api.get_all(ctx, host=params.get('host') or None,
                                    binary=params.get('binary') or None)
    return wsgi.json_response({'services': [views.service(req, s)
                                            for s in services]})


def _values(body):
    values = {}
    if body.get('status') == 'enabled':
        if body.get('disabled_reason'):
            raise fault.HTTPError(400, "Specifying 'disabled_reason' with "
                                       "status 'enabled' is invalid.")
        values.update(disabled=False, disabled_reason=None)
    elif body.get('status') == 'disabled':
        values.update(disabled=True,
                      disabled_reason=body.get('disabled_reason'))
    if 'forced_down' in body:
        values['forced_down'] = strutils.bool_from_string(
            body['forced_down'], strict=True)
    if not values:
        raise fault.HTTPError(400, "No updates were requested. Fields "
                                   "'status' or 'forced_down' should be "
                                   "specified.")
    return values


@microversion.version_window(versions.SERVICE_UUIDS)
@responses.declare(schema.UPDATE_RESPONSE_V2_53, 200,
                   versions.SERVICE_UUIDS)
@validation.body(schema.UPDATE_V2_53, versions.SERVICE_UUIDS)
def update_service(req):
    service_id = req.urlvars['service_id']
    if not services_api.is_uuid(service_id):
        raise fault.HTTPError(400, 'Invalid uuid %s' % service_id)
    ctx = req.context
    ctx.can(policy.UPDATE, {})
    svc = services_api.update(ctx, service_id, _values(req.validated))
    return wsgi.json_response({'service': views.service(req, svc)})


@responses.declare(None, 204)
@validation.query(schema.DELETE_QUERY)
def delete_service(req):
    ctx = req.context
    ctx.can(policy.DELETE, {})
    service_id = req.urlvars['service_id']
    if microversion.at_least(req, versions.SERVICE_UUIDS):
        if not services_api.is_uuid(service_id):
            raise fault.HTTPError(400, 'Invalid uuid %s' % service_id)
    elif not service_id.isascii() or not service_id.isdigit():
        raise fault.HTTPError(400, 'Invalid input received: id must be '
                                   'an integer, not %s.' % service_id)
    services_api.delete(ctx, service_id)
    return wsgi.empty_response(204)
