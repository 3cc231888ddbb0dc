"""Handlers of POST /servers/{id}/action: os-start, os-stop, reboot,
rebuild (os-getConsoleOutput is in console_output.py, as in Nova)."""

from tether.api.compute.handlers import servers
from tether.api.compute.schemas import server_actions as schema
from tether.api.compute.schemas import servers_responses as rs
from tether.api.compute import versions
from tether.api import fault
from tether.api import microversion
from tether.api import responses
from tether.api import validation
from tether.api import wsgi
from tether.compute.api import admin_password
from tether.compute.api import keypairs as keypairs_api
from tether.compute.api import personality
from tether.compute.api import rebuild as rebuild_api
from tether.compute.api import server_actions as actions_api
from tether.compute import keypair_exception
from tether.policies.compute import server_actions as policy
from tether.policies.compute import servers as servers_policy


@responses.declare(None, 202)
@validation.body(schema.START)
def start_server(req):
    instance = servers.load_server(req, policy.START)
    actions_api.start(req.context, instance)
    return wsgi.empty_response(202)


@responses.declare(None, 202)
@validation.body(schema.STOP)
def stop_server(req):
    instance = servers.load_server(req, policy.STOP)
    actions_api.stop(req.context, instance)
    return wsgi.empty_response(202)


@responses.declare(None, 202)
@validation.body(schema.REBOOT)
def reboot_server(req):
    instance = servers.load_server(req, policy.REBOOT)
    actions_api.reboot(req.context, instance,
                       req.validated['reboot']['type'].upper())
    return wsgi.empty_response(202)


# What a rebuild may change of the server besides its image.
_REBUILD_VALUES = {'name': 'display_name', 'metadata': 'metadata',
                   'description': 'display_description',
                   'hostname': 'hostname', 'user_data': 'user_data',
                   'accessIPv4': 'access_ip_v4',
                   'accessIPv6': 'access_ip_v6'}


@servers.declare_views(rs.rebuild, 202, versions.BASE, versions.LOCKED,
                       versions.SERVER_DESCRIPTION, versions.SERVER_TAGS,
                       versions.EMBEDDED_FLAVOR, versions.KEYPAIR_ON_REBUILD,
                       versions.USER_DATA_ON_REBUILD, versions.TRUSTED_CERTS,
                       versions.SERVER_GROUPS, versions.LOCKED_REASON,
                       versions.STRICT_QUERY, versions.SERVER_HOSTNAME,
                       versions.PINNED_AVAILABILITY_ZONE)
@validation.body(schema.REBUILD, versions.BASE,
                 microversion.before(versions.SERVER_DESCRIPTION))
@validation.body(schema.REBUILD_V2_19, versions.SERVER_DESCRIPTION,
                 microversion.before(versions.KEYPAIR_ON_REBUILD))
@validation.body(schema.REBUILD_V2_54, versions.KEYPAIR_ON_REBUILD,
                 microversion.before(versions.USER_DATA_ON_REBUILD))
@validation.body(schema.REBUILD_V2_57, versions.USER_DATA_ON_REBUILD,
                 microversion.before(versions.TRUSTED_CERTS))
@validation.body(schema.REBUILD_V2_63, versions.TRUSTED_CERTS,
                 microversion.before(versions.SERVER_HOSTNAME))
@validation.body(schema.REBUILD_V2_90, versions.SERVER_HOSTNAME,
                 microversion.before(versions.VOLUME_REBUILD))
@validation.body(schema.REBUILD_V2_93, versions.VOLUME_REBUILD,
                 microversion.before(versions.FQDN_HOSTNAME))
@validation.body(schema.REBUILD_V2_94, versions.FQDN_HOSTNAME)
def rebuild_server(req):
    instance = servers.load_server(req, policy.REBUILD)
    body = req.validated['rebuild']
    personality.check(req.context, body.get('personality'))
    values = {column: body[key] for key, column in _REBUILD_VALUES.items()
              if key in body}
    if 'key_name' in body:
        values.update(_key_pair(req.context, body['key_name']))
    instance = rebuild_api.rebuild(
        req.context, instance, body['imageRef'], values,
        reimage_boot_volume=body.get('reimage_boot_volume'),
        reimage_by_default=microversion.at_least(req,
                                                 versions.VOLUME_REBUILD),
        zero_disk_allowed=req.context.can(
            servers_policy.CREATE_ZERO_DISK_FLAVOR,
            {'project_id': instance.project_id, 'user_id': instance.user_id},
            fatal=False))
    return servers.changed(
        req, instance, status=202, rebuilt=True,
        admin_pass=admin_password.for_response(body.get('adminPass')))


def _key_pair(ctx, name):
    """The server's key pair after a rebuild with ``key_name`` (2.54): the
    caller's key pair of that name (the caller's, as Nova takes it: users
    own key pairs, projects own servers), or none for null."""
    if name is None:
        return {'key_name': None, 'key_data': None}
    try:
        key_pair = keypairs_api.get(ctx, ctx.user_id, name)
    except keypair_exception.KeypairNotFound:
        raise fault.HTTPError(
            400, 'Invalid key_name provided: you have no key pair %s.'
                 % name)
    return {'key_name': key_pair.name, 'key_data': key_pair.public_key}


ACTIONS = {
    'os-start': start_server,
    'os-stop': stop_server,
    'reboot': reboot_server,
    'rebuild': rebuild_server,
}
