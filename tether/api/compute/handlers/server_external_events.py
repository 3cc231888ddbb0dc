"""Handlers of POST /os-server-external-events (from other services)."""

import re

from oslo_log import log as logging

from tether.api.compute.schemas import server_external_events as schema
from tether.api.compute import versions
from tether.api import microversion
from tether.api import responses
from tether.api import validation
from tether.api import wsgi
from tether.compute.api import server_external_events as events_api
from tether.compute.api import servers as servers_api
from tether.compute import exception
from tether.policies.compute import server_external_events as policy

LOG = logging.getLogger(__name__)

# Events that mean nothing without a tag naming the device or port
# (Nova's; not volume-reimaged, which without one is accepted and meets
# no rebuild waiting for it).
TAG_REQUIRED = ('volume-extended', 'power-update',
                'accelerator-request-bound')


# tether's volume service sends, with volume-extended of an extend that
# waits for the server's host, the size it waits for:
# "<volume id>=<GiB>[, <volume id>=<GiB> ...]" (the events themselves
# stay Nova's). Only a caller with a service token may set it; from
# another caller, or unreadable, it is ignored and the host reads the
# volume, as for an upstream Cinder's event.
EXTEND_SIZE_HEADER = 'OpenStack-Tether-Extend-New-Size'
_SIZE_ITEM = re.compile(r'\s*([^\s=,]{1,255})\s*=\s*([0-9]{1,9})\s*',
                        re.ASCII)


def _extend_sizes(req):
    """{volume id: GiB} of the header, from a service caller; else {}."""
    text = req.headers.get(EXTEND_SIZE_HEADER)
    if text is None:
        return {}
    if not req.context.is_service:
        LOG.warning('%s ignored: the caller has no service token',
                    EXTEND_SIZE_HEADER)
        return {}
    sizes = {}
    for item in text.split(','):
        found = _SIZE_ITEM.fullmatch(item)
        if not found or int(found.group(2)) < 1:
            LOG.warning('%s ignored: %r is not <volume id>=<GiB>',
                        EXTEND_SIZE_HEADER, item)
            return {}
        sizes[found.group(1)] = int(found.group(2))
    return sizes


def _accept(ctx, event, sizes):
    """The event's response code (and act on it if it is 200)."""
    name, tag = event['name'], event.get('tag')
    try:
        instance = servers_api.get_any(ctx, event['server_uuid'])
    except exception.InstanceNotFound:
        return 404
    if name in TAG_REQUIRED and not tag:
        return 400
    if not instance.host:
        return 422
    new_size = sizes.get(tag) if name == 'volume-extended' else None
    events_api.external_event(ctx, instance, name, tag,
                              event.get('status', 'completed'),
                              new_size=new_size)
    return 200


@responses.declare(schema.CREATE_RESPONSE, schema.STATUSES, versions.BASE,
                   microversion.before(versions.VOLUME_EXTENDED_EVENT))
@responses.declare(schema.CREATE_RESPONSE_V2_51, schema.STATUSES,
                   versions.VOLUME_EXTENDED_EVENT,
                   microversion.before(versions.POWER_UPDATE_EVENT))
@responses.declare(schema.CREATE_RESPONSE_V2_76, schema.STATUSES,
                   versions.POWER_UPDATE_EVENT,
                   microversion.before(versions.ACCELERATOR_EVENT))
@responses.declare(schema.CREATE_RESPONSE_V2_82, schema.STATUSES,
                   versions.ACCELERATOR_EVENT,
                   microversion.before(versions.VOLUME_REBUILD))
@responses.declare(schema.CREATE_RESPONSE_V2_93, schema.STATUSES,
                   versions.VOLUME_REBUILD)
@validation.body(schema.CREATE, versions.BASE,
                 microversion.before(versions.VOLUME_EXTENDED_EVENT))
@validation.body(schema.CREATE_V2_51, versions.VOLUME_EXTENDED_EVENT,
                 microversion.before(versions.POWER_UPDATE_EVENT))
@validation.body(schema.CREATE_V2_76, versions.POWER_UPDATE_EVENT,
                 microversion.before(versions.ACCELERATOR_EVENT))
@validation.body(schema.CREATE_V2_82, versions.ACCELERATOR_EVENT,
                 microversion.before(versions.VOLUME_REBUILD))
@validation.body(schema.CREATE_V2_93, versions.VOLUME_REBUILD)
def create_external_events(req):
    ctx = req.context
    ctx.can(policy.CREATE, {'project_id': ctx.project_id})
    results = []
    sizes = _extend_sizes(req)
    for event in req.validated['events']:
        result = dict(event)
        result['code'] = _accept(ctx, event, sizes)
        # What became of it (Nova's): "completed" when accepted, whatever
        # status it came with, else "failed".
        result['status'] = 'completed' if result['code'] == 200 \
            else 'failed'
        results.append(result)
    status = 200 if all(r['code'] == 200 for r in results) else 207
    return wsgi.json_response({'events': results}, status=status)
