"""Handlers of /os-assisted-volume-snapshots (the volume service's calls:
a snapshot of a volume attached to a server, taken and merged by the
server's hypervisor)."""

from oslo_serialization import jsonutils

from tether.api.compute.schemas import assisted_volume_snapshots as schema
from tether.api.compute import versions
from tether.api import microversion
from tether.api import responses
from tether.api import validation
from tether.api import wsgi
from tether.compute.api import assisted_volume_snapshots as avs_api
from tether.compute import exception
from tether.policies.compute import assisted_volume_snapshots as policy

_DELETE_INFO = validation.validator(schema.DELETE_INFO)


@responses.declare(schema.CREATE_RESPONSE)
@validation.body(schema.CREATE)
def create(req):
    ctx = req.context
    ctx.can(policy.CREATE, {})
    body = req.validated['snapshot']
    snapshot = avs_api.create(ctx, body['volume_id'], body['create_info'])
    return wsgi.json_response({'snapshot': snapshot})


def _delete_info(text):
    if text is None:
        raise exception.InvalidDeleteInfo(
            reason='the query parameter delete_info is required')
    try:
        info = jsonutils.loads(text)
    except (ValueError, RecursionError) as exc:
        raise exception.InvalidDeleteInfo(reason='it is not JSON: %s'
                                          % exc)
    _DELETE_INFO.validate(info, 'delete_info')
    return info


@responses.declare(None, 204)
@validation.query(schema.DELETE_QUERY, versions.BASE,
                  microversion.before(versions.STRICT_QUERY))
@validation.query(schema.DELETE_QUERY_V2_75, versions.STRICT_QUERY)
def delete(req):
    ctx = req.context
    ctx.can(policy.DELETE, {})
    info = _delete_info(req.validated_query.get('delete_info'))
    avs_api.delete(ctx, req.urlvars['snapshot_id'], info)
    return wsgi.empty_response(204)
