"""Handlers of /servers: create, list, detail, show, update, delete."""

import functools
import uuid

from oslo_utils import strutils

from tether.api.compute.schemas import servers as schema
from tether.api.compute.schemas import servers_responses as rs
from tether.api.compute import versions
from tether.api.compute.views import servers as views
from tether.api import fault
from tether.api import listing
from tether.api import microversion
from tether.api import query
from tether.api import response_types as rt
from tether.api import responses
from tether.api import validation
from tether.api import wsgi
from tether.compute.api import admin_password
from tether.compute.api import block_device_mapping
from tether.compute.api import personality
from tether.compute.api import server_groups as server_groups_api
from tether.compute.api import servers as servers_api
from tether.compute import keypair_exception
from tether.compute import server_group_exception as sg_exception
from tether.objects.compute import status as server_status
from tether.policies.compute import servers as policy


def target(instance):
    """The policy target of a server."""
    return {'project_id': instance.project_id, 'user_id': instance.user_id}


def load_server(req, action):
    """The server of the URL, after the policy check of ``action``."""
    instance = servers_api.get(req.context, req.urlvars['server_id'])
    req.context.can(action, target(instance))
    return instance


def _view(req):
    return views.ServerView(
        req, host_statuses=functools.partial(servers_api.host_statuses,
                                             req.context),
        server_groups=functools.partial(server_groups_api.groups_of,
                                        req.context))


def declare_views(build, status, *starts):
    """Declare what a handler that answers with a server answers: for
    each window from one microversion of ``starts`` to just before the
    next (the last: to the latest), ``status`` and a body of
    ``build(start)`` (a builder of schemas.servers_responses)."""
    return rt.declare_each(rt.by_version(
        build(starts[0]), *[(start, build(start)) for start in starts[1:]]),
        status)


def show(req, instance, status=200):
    devices = servers_api.block_devices_of_instance(req.context, instance)
    return wsgi.json_response({'server': _view(req).show(instance, devices)},
                              status=status)


def changed(req, instance, status=200, rebuilt=False, admin_pass=None):
    """The answer to an update or (``rebuilt``) a rebuild, with
    ``admin_pass`` as ``adminPass``."""
    devices = servers_api.block_devices_of_instance(req.context, instance)
    server = _view(req).changed(instance, devices, rebuilt=rebuilt)
    if admin_pass is not None:
        server['adminPass'] = admin_pass
    return wsgi.json_response({'server': server}, status=status)


# Create ----------------------------------------------------------------------

def _uuid(value):
    """The canonical form of a UUID the schema let through."""
    return str(uuid.UUID(value))


def _device(entry):
    index = entry.get('boot_index')
    index = None if index is None or int(index) < 0 else int(index)
    source = entry['source_type']
    size = entry.get('volume_size')
    return block_device_mapping.Device(
        source_type=source,
        destination_type=entry.get('destination_type') or source,
        # Without a uuid, a device other than a blank volume is refused
        # by block_device_mapping.plan (Missing device UUID).
        uuid=(_uuid(entry['uuid']) if source == 'image' and 'uuid' in entry
              else entry.get('uuid')),
        boot_index=index,
        delete_on_termination=strutils.bool_from_string(
            entry.get('delete_on_termination', False)),
        tag=entry.get('tag'),
        volume_size=int(size) if size not in (None, '') else None)


@responses.declare(rs.CREATE_RESPONSE, 202)
@validation.body(schema.CREATE, versions.BASE,
                 microversion.before(versions.SERVER_DESCRIPTION))
@validation.body(schema.CREATE_V2_19, versions.SERVER_DESCRIPTION,
                 microversion.before(versions.NETWORKS_REQUIRED))
@validation.body(schema.CREATE_V2_37, versions.NETWORKS_REQUIRED,
                 microversion.before(versions.BDM_TAG))
@validation.body(schema.CREATE_V2_42, versions.BDM_TAG,
                 microversion.before(versions.USER_DATA_ON_REBUILD))
@validation.body(schema.CREATE_V2_57, versions.USER_DATA_ON_REBUILD,
                 microversion.before(versions.SERVER_HOSTNAME))
@validation.body(schema.CREATE_V2_90, versions.SERVER_HOSTNAME,
                 microversion.before(versions.FQDN_HOSTNAME))
@validation.body(schema.CREATE_V2_94, versions.FQDN_HOSTNAME)
def create_server(req):
    ctx = req.context
    body = req.validated['server']
    target = {'project_id': ctx.project_id, 'user_id': ctx.user_id}
    ctx.can(policy.CREATE, target)
    devices = [_device(e) for e in body.get('block_device_mapping_v2', ())]
    if devices:
        ctx.can(policy.CREATE_VOLUME, target)
    image_ref = _uuid(body['imageRef']) if body.get('imageRef') else None
    if image_ref is None and not devices:
        raise fault.HTTPError(400, 'Missing imageRef attribute')
    zone = body.get('availability_zone')
    if zone and ':' in zone:
        raise fault.HTTPError(
            400, 'Invalid input for field/attribute availability_zone. '
                 'Value: %s. tether does not place servers on a named '
                 'host; give a zone name.' % zone)
    personality.check(ctx, body.get('personality'))
    try:
        instance = _create(ctx, body, devices, image_ref, zone, target,
                           _group_hint(req.validated))
    except keypair_exception.KeypairNotFound:
        raise fault.HTTPError(
            400, 'Invalid key_name provided: you have no key pair %s.'
                 % body['key_name'])
    except sg_exception.ServerGroupNotFound as exc:
        # Nova's 400: the hint names no group of the caller's.
        raise fault.HTTPError(400, str(exc))
    view = _view(req)
    server = {'id': instance.uuid,
              'links': view.links('servers', instance.uuid,
                                  instance.project_id),
              'OS-DCF:diskConfig': body.get('OS-DCF:diskConfig', 'MANUAL')}
    admin_pass = admin_password.for_response(body.get('adminPass'))
    if admin_pass is not None:
        server['adminPass'] = admin_pass
    resp = wsgi.json_response({'server': server}, status=202)
    resp.headers['Location'] = server['links'][0]['href']
    return resp


# What a server is given for itself and kept as given: the request's key
# -> the instance's column.
_GIVEN = {'user_data': 'user_data', 'accessIPv4': 'access_ip_v4',
          'accessIPv6': 'access_ip_v6'}


def _group_hint(validated):
    """The server group of the scheduler hint ``group`` (a UUID, or a
    list of one), as Nova reads the hints: ``os:scheduler_hints``, else
    ``OS-SCH-HNT:scheduler_hints``."""
    hints = validated.get('os:scheduler_hints')
    if hints is None:
        hints = validated.get('OS-SCH-HNT:scheduler_hints') or {}
    group = hints.get('group')
    if isinstance(group, list):
        group = group[0]
    return _uuid(group) if group else None


def _create(ctx, body, devices, image_ref, zone, target, group_uuid):
    return servers_api.create(
        ctx, body['name'], body['flavorRef'], devices, image_ref=image_ref,
        availability_zone=zone, metadata=body.get('metadata'),
        description=body.get('description'),
        hostname=body.get('hostname'), key_name=body.get('key_name'),
        given={column: body[key] for key, column in _GIVEN.items()
               if key in body}, group_uuid=group_uuid,
        config_drive=strutils.bool_from_string(body.get('config_drive')),
        zero_disk_allowed=ctx.can(policy.CREATE_ZERO_DISK_FLAVOR, target,
                                  fatal=False))


# List ------------------------------------------------------------------------

def _all_projects(params):
    """Whether the query asks for every project's servers, as Nova reads
    ``all_tenants``: present with no value is yes."""
    if 'all_tenants' not in params:
        return False
    value = params['all_tenants']
    if value == '':
        return True
    try:
        return strutils.bool_from_string(value, strict=True)
    except ValueError:
        raise fault.HTTPError(
            400, 'Invalid input for query parameter all_tenants. Value: '
                 '%s. It is not a boolean.' % value)


def _locked(value):
    """The ``locked`` filter (2.73), a boolean as Nova reads it."""
    try:
        return strutils.bool_from_string(value, strict=True)
    except ValueError:
        raise fault.HTTPError(
            400, "Unrecognized value '%s', acceptable values are: 'true', "
                 "'false'" % value)


def _search(req, all_projects_rule):
    ctx = req.context
    params = req.validated_query
    if _all_projects(params):
        # As Nova: a caller the rule refuses gets 403, not its own list.
        ctx.can(all_projects_rule, {'project_id': ctx.project_id})
        project_id = (params.get('project_id') or params.get('tenant_id')
                      or None)
    else:
        # Without all_tenants, project_id and tenant_id are ignored
        # (Nova, LP 1185290): the caller's own project.
        project_id = ctx.project_id
    filters = {}
    if 'name' in params:
        filters['display_name'] = params['name']
    if 'status' in params:
        status = str(params['status']).upper()
        status_filters = server_status.SERVER_STATUS_FILTERS.get(status)
        if status_filters is None:
            # Before 2.38 Nova answers an unknown status with no servers.
            if microversion.at_least(req, versions.STRICT_STATUS_FILTER):
                raise fault.HTTPError(
                    400, 'Invalid status value %r: a server status is one '
                         'of %s.' % (params['status'], ', '.join(
                             sorted(server_status.SERVER_STATUS_FILTERS))))
            return None
        filters.update(status_filters)
    if 'availability_zone' in params:
        filters['availability_zone'] = params['availability_zone']
    if 'locked' in params and microversion.at_least(req,
                                                    versions.LOCKED_REASON):
        filters['locked'] = _locked(params['locked'])
    if 'host' in params and ctx.is_admin:
        filters['host'] = params['host']
    if 'uuid' in params:
        filters['uuid'] = params['uuid']
    if 'image' in params:
        # The image of a server booted from one (an ID, or its URL).
        filters['image_ref'] = params['image'].rstrip('/').rpartition(
            '/')[2]
    changes_since = query.iso_time(params, 'changes-since')
    deleted = False
    if 'deleted' in params and ctx.is_admin:
        deleted = strutils.bool_from_string(params['deleted'])
    limit = listing.page_size(params)
    instances = servers_api.get_all(
        ctx, project_id, filters=filters, marker=params.get('marker'),
        limit=limit, changes_since=changes_since,
        deleted=None if changes_since and not deleted else deleted)
    return instances, limit


def _list(req, detail):
    rule = policy.DETAIL if detail else policy.INDEX
    req.context.can(rule, {'project_id': req.context.project_id})
    found = _search(req, policy.DETAIL_ALL_PROJECTS if detail
                    else policy.INDEX_ALL_PROJECTS)
    instances, limit = found if found else ([], None)
    view = _view(req)
    if detail:
        devices = servers_api.block_devices_of(req.context, instances)
        servers = [view.detail(i, devices[i.uuid]) for i in instances]
    else:
        servers = [view.basic(i) for i in instances]
    body = {'servers': servers}
    links = listing.next_links(req, instances, limit,
                               lambda instance: instance.uuid)
    if links:
        body['servers_links'] = links
    return wsgi.json_response(body)


@responses.declare(rs.LIST_RESPONSE)
@validation.query(schema.LIST_QUERY)
def list_servers(req):
    return _list(req, detail=False)


@declare_views(rs.detail, 200, versions.BASE, versions.EXTENDED_ATTRIBUTES,
               versions.LOCKED, versions.HOST_STATUS,
               versions.SERVER_DESCRIPTION, versions.SERVER_TAGS,
               versions.EMBEDDED_FLAVOR, versions.TRUSTED_CERTS,
               versions.LOCKED_REASON, versions.SERVER_HOSTNAME,
               versions.PINNED_AVAILABILITY_ZONE)
@validation.query(schema.LIST_QUERY)
def list_servers_detail(req):
    return _list(req, detail=True)


# One server ------------------------------------------------------------------

@declare_views(rs.show, 200, versions.BASE, versions.EXTENDED_ATTRIBUTES,
               versions.LOCKED, versions.HOST_STATUS,
               versions.SERVER_DESCRIPTION, versions.SERVER_TAGS,
               versions.EMBEDDED_FLAVOR, versions.TRUSTED_CERTS,
               versions.SERVER_GROUPS, versions.LOCKED_REASON,
               versions.SERVER_HOSTNAME, versions.PINNED_AVAILABILITY_ZONE)
@validation.query(validation.IGNORED_QUERY)
def show_server(req):
    return show(req, load_server(req, policy.SHOW))


@declare_views(rs.update, 200, versions.BASE, versions.LOCKED,
               versions.SERVER_DESCRIPTION, versions.SERVER_TAGS,
               versions.EMBEDDED_FLAVOR, versions.TRUSTED_CERTS,
               versions.SERVER_GROUPS, versions.LOCKED_REASON,
               versions.STRICT_QUERY, versions.SERVER_HOSTNAME,
               versions.PINNED_AVAILABILITY_ZONE)
@validation.body(schema.UPDATE, versions.BASE,
                 microversion.before(versions.SERVER_DESCRIPTION))
@validation.body(schema.UPDATE_V2_19, versions.SERVER_DESCRIPTION,
                 microversion.before(versions.SERVER_HOSTNAME))
@validation.body(schema.UPDATE_V2_90, versions.SERVER_HOSTNAME,
                 microversion.before(versions.FQDN_HOSTNAME))
@validation.body(schema.UPDATE_V2_94, versions.FQDN_HOSTNAME)
def update_server(req):
    instance = load_server(req, policy.UPDATE)
    body = req.validated['server']
    values = {}
    if 'name' in body:
        values['display_name'] = body['name']
    if 'description' in body:
        values['display_description'] = body['description']
    if 'hostname' in body:
        values['hostname'] = body['hostname']
    for key, column in _GIVEN.items():
        if key in body:
            values[column] = body[key]
    if values:
        instance = servers_api.update(req.context, instance, values)
    return changed(req, instance)


@responses.declare(None, 204)
@validation.query(validation.IGNORED_QUERY)
def delete_server(req):
    instance = load_server(req, policy.DELETE)
    servers_api.delete(req.context, instance)
    return wsgi.empty_response(204)
