"""Handler of /os-services: the volume services and their state."""

from tether.api import response_types as rt
from tether.api import responses
from tether.api import validation
from tether.api.volume.schemas import services as schema
from tether.api.volume.views import services as views
from tether.api import wsgi
from tether.policies.volume import services as policy
from tether.volume.api import services as volume_services


@rt.declare_each(schema.LIST_RESPONSES)
@validation.query(schema.LIST_QUERY)
def list_services(req):
    ctx = req.context
    ctx.can(policy.INDEX)
    params = req.validated_query
    binary = params.get('binary')
    services = volume_services.get_all(
        ctx, host=params.get('host'),
        binary=views.stored_name(binary) if binary else binary)
    return wsgi.json_response({'services': [views.service(req, s)
                                            for s in services]})


def _set_enabled(req, key, enabled):
    ctx = req.context
    ctx.can(policy.UPDATE)
    body = req.validated
    binary = body.get('binary') or body.get('service')
    reason = body.get('disabled_reason')
    volume_services.set_enabled(ctx, body['host'],
                                views.stored_name(binary), enabled,
                                reason.strip() if reason else None)
    answer = {'host': body['host'], 'service': body.get('service', ''),
              'binary': body.get('binary', ''),
              'status': 'enabled' if enabled else 'disabled',
              'disabled': not enabled}
    if key is not None:
        answer['disabled_reason'] = reason.strip() if reason else None
    return wsgi.json_response(answer)


@responses.declare(schema.ENABLE_RESPONSE)
@validation.body(schema.ENABLE)
def enable_service(req):
    """Enable a service: the scheduler places volumes on it again."""
    return _set_enabled(req, 'disabled_reason', True)


@responses.declare(schema.DISABLE_RESPONSE)
@validation.body(schema.ENABLE)
def disable_service(req):
    """Disable a service: the scheduler places no new volume on it."""
    return _set_enabled(req, None, False)


@responses.declare(schema.DISABLE_LOG_REASON_RESPONSE)
@validation.body(schema.DISABLE_LOG_REASON)
def disable_service_log_reason(req):
    """Disable a service and record why."""
    return _set_enabled(req, 'disabled_reason', False)


@responses.declare(None, 200)
@validation.body(schema.FREEZE)
def freeze_host(req):
    """Freeze a volume backend (400 if no volume service runs there, or
    it is frozen already)."""
    ctx = req.context
    ctx.can(policy.UPDATE)
    ctx.can(policy.FREEZE)
    volume_services.freeze(ctx, req.validated['host'])
    return wsgi.empty_response(200)


@responses.declare(None, 200)
@validation.body(schema.FREEZE)
def thaw_host(req):
    """Thaw a frozen volume backend."""
    ctx = req.context
    ctx.can(policy.UPDATE)
    ctx.can(policy.THAW)
    volume_services.thaw(ctx, req.validated['host'])
    return wsgi.empty_response(200)
