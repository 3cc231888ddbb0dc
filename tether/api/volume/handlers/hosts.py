"""Handlers of /os-hosts (Cinder's deprecated host API): the enabled
volume services, and what one holds per project."""

from oslo_config import cfg

from tether.api import responses
from tether.api import validation
from tether.api.volume.schemas import hosts as schema
from tether.api.volume.views import services as service_views
from tether.api import wsgi
from tether.policies.volume import hosts as policy
from tether.volume.api import hosts as host_api

CONF = cfg.CONF


@responses.declare(schema.LIST_RESPONSE)
@validation.query(schema.LIST_QUERY)
def list_hosts(req):
    ctx = req.context
    ctx.can(policy.MANAGE)
    hosts = []
    for service in host_api.get_all(ctx, zone=req.validated_query.get(
            'zone')):
        up = service.is_up(CONF.service_down_time)
        hosts.append({
            'host_name': service.host,
            'service': service_views.WIRE_NAMES.get(service.binary,
                                                    service.binary),
            'zone': service.availability_zone,
            'service-status': 'available' if up else 'unavailable',
            'service-state': 'disabled' if service.disabled else 'enabled',
            'last-update': service.heartbeat_at or service.updated_at,
        })
    return wsgi.json_response({'hosts': hosts})


@responses.declare(schema.SHOW_RESPONSE)
@validation.query(schema.NO_QUERY)
def show_host(req):
    """The volumes and snapshots on a volume host: the total, then each
    project's (counts and GiB as strings, as Cinder's)."""
    ctx = req.context
    ctx.can(policy.MANAGE)
    host = req.urlvars['host_name']
    rows = host_api.usage(ctx, host)
    return wsgi.json_response({'host': [{'resource': {
        'host': host, 'project': project, 'volume_count': str(volumes),
        'total_volume_gb': str(volume_gb), 'snapshot_count': str(snapshots),
        'total_snapshot_gb': str(snapshot_gb)}}
        for project, volumes, volume_gb, snapshots, snapshot_gb in rows]})
