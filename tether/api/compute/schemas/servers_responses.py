"""What /servers and the rebuild action answer, per microversion: the
shapes Nova answers with (its own response schemas, and Tempest's).

A server is shown four ways: an item of /servers/detail, a show, and
the answer to an update or a rebuild. Each grows at the same
microversions, so one builder (``_server``) gives all four from the
microversion a window starts at; the handlers declare one window per
microversion that changes their view.
"""

from tether.api.compute import versions
from tether.api import microversion
from tether.api import response_types as rt

_string = {'type': 'string'}
_string_or_null = rt.string_or_null
_integer_or_null = {'type': ['integer', 'null']}

# Nova's server statuses (tether shows some of them).
status = {'type': 'string', 'enum': [
    'ACTIVE', 'BUILD', 'DELETED', 'ERROR', 'HARD_REBOOT', 'MIGRATING',
    'PASSWORD', 'PAUSED', 'REBOOT', 'REBUILD', 'RESCUE', 'RESIZE',
    'REVERT_RESIZE', 'SHELVED', 'SHELVED_OFFLOADED', 'SHUTOFF',
    'SOFT_DELETED', 'SUSPENDED', 'UNKNOWN', 'VERIFY_RESIZE']}
# An access address: one given at create or update, else "".
access_ip_v4 = {'type': 'string', 'anyOf': [{'format': 'ipv4'},
                                            {'const': ''}]}
access_ip_v6 = {'type': 'string', 'anyOf': [{'format': 'ipv6'},
                                            {'const': ''}]}
# The image of a server booted from one; "" for one that boots from a
# volume.
image = {'anyOf': [{'const': ''},
                   rt.obj({'id': rt.uuid, 'links': rt.links})]}
# Before 2.47: a link to the flavor (Nova sends {} for a flavor whose
# record is gone, so neither key is required).
flavor_link = rt.obj({'id': _string, 'links': rt.links}, required=())
# From 2.47: the flavor as it was when the server got it.
flavor_embedded = rt.obj({
    'original_name': _string,
    'vcpus': {'type': 'integer'},
    'ram': {'type': 'integer'},
    'disk': {'type': 'integer'},
    'ephemeral': {'type': 'integer'},
    'swap': {'type': 'integer'},
    # Only where policy shows extra specs.
    'extra_specs': rt.string_map,
}, required=['original_name', 'vcpus', 'ram', 'disk', 'ephemeral', 'swap'])
# What went wrong, of a server in ERROR (details not of every fault).
fault = rt.obj({'code': {'type': 'integer'}, 'created': rt.date_time,
                'message': _string, 'details': _string},
               required=['code', 'created', 'message'])
# IP addresses per network (tether's servers have none: {}).
_address = rt.obj({
    'addr': {'type': 'string', 'anyOf': [{'format': 'ipv4'},
                                         {'format': 'ipv6'}]},
    'version': {'enum': [4, 6]},
    'OS-EXT-IPS:type': {'enum': ['fixed', 'floating']},
    'OS-EXT-IPS-MAC:mac_addr': _string,
}, required=['addr', 'version'])
addresses = {'type': 'object',
             'additionalProperties': {'type': 'array', 'items': _address}}
power_state = {'enum': [0, 1, 3, 4, 6, 7, None]}
host_status = {'enum': ['UP', 'DOWN', 'MAINTENANCE', 'UNKNOWN', '']}
user_data = {'type': ['string', 'null'], 'format': 'base64',
             'maxLength': 65535}
security_groups = {'type': 'array', 'items': rt.obj({'name': _string})}


def _volumes_attached(with_delete_flag):
    item = {'id': _string}
    if with_delete_flag:
        item['delete_on_termination'] = {'type': 'boolean'}
    return {'type': 'array', 'items': rt.obj(item)}


# What every view has: Nova's update view (and rebuild's, before 2.75).
_CORE = {
    'id': rt.uuid, 'name': _string_or_null, 'links': rt.links,
    'status': status, 'tenant_id': _string, 'user_id': _string,
    'metadata': rt.string_map, 'hostId': _string, 'image': image,
    'flavor': flavor_link, 'created': rt.date_time, 'updated': rt.date_time,
    'addresses': addresses, 'accessIPv4': access_ip_v4,
    'accessIPv6': access_ip_v6, 'OS-DCF:diskConfig': _string,
    # progress while ACTIVE, building or rebuilding; fault in ERROR.
    'progress': {'type': ['number', 'null']}, 'fault': fault,
}
# What a show and a detail add (and an update or a rebuild, from 2.75).
_WHOLE = {
    'OS-EXT-AZ:availability_zone': _string,
    'config_drive': {'enum': ['', 'True', 'False', None]},
    'key_name': _string_or_null,
    'OS-SRV-USG:launched_at': rt.date_time_or_null,
    'OS-SRV-USG:terminated_at': rt.date_time_or_null,
    'OS-EXT-STS:task_state': _string_or_null,
    'OS-EXT-STS:vm_state': _string_or_null,
    'OS-EXT-STS:power_state': power_state,
    'os-extended-volumes:volumes_attached': _volumes_attached(False),
}
# Where the server runs, by policy (administrators): never required.
_WHERE = {
    'OS-EXT-SRV-ATTR:host': _string_or_null,
    'OS-EXT-SRV-ATTR:instance_name': _string,
    'OS-EXT-SRV-ATTR:hypervisor_hostname': _string_or_null,
}
# 2.3: more of it, by the same policy.
_WHERE_V2_3 = {
    'OS-EXT-SRV-ATTR:reservation_id': _string_or_null,
    'OS-EXT-SRV-ATTR:launch_index': _integer_or_null,
    'OS-EXT-SRV-ATTR:hostname': _string,
    'OS-EXT-SRV-ATTR:kernel_id': _string_or_null,
    'OS-EXT-SRV-ATTR:ramdisk_id': _string_or_null,
    'OS-EXT-SRV-ATTR:root_device_name': _string_or_null,
    'OS-EXT-SRV-ATTR:user_data': user_data,
}
# What each later microversion adds, required, to every view (locked,
# description, tags, trusted certificates, locked_reason).
_ADDED = [
    (versions.LOCKED, 'locked', {'type': 'boolean'}),
    (versions.SERVER_DESCRIPTION, 'description', _string_or_null),
    (versions.SERVER_TAGS, 'tags', {'type': 'array', 'items': _string,
                                    'maxItems': 50}),
    (versions.TRUSTED_CERTS, 'trusted_image_certificates',
     {'type': ['array', 'null'], 'items': _string}),
    (versions.LOCKED_REASON, 'locked_reason', _string_or_null),
]
server_groups = {'type': 'array', 'items': rt.uuid, 'maxItems': 1}
VIEWS = ('detail', 'show', 'update', 'rebuild')


def _server(view, since):
    """A server as ``view`` (one of VIEWS) shows it in the window that
    starts at microversion ``since``."""
    lo = microversion.parse(since)

    def at(version):
        return lo >= microversion.parse(version)

    properties = dict(_CORE)
    required = [key for key in _CORE if key not in ('progress', 'fault')]
    if view == 'rebuild':
        # A server being rebuilt shows its progress.
        required.append('progress')
    if view in ('detail', 'show') or at(versions.STRICT_QUERY):
        properties.update(_WHOLE)
        required.extend(_WHOLE)
        # Nova shows security groups only of servers that have some.
        properties['security_groups'] = security_groups
        properties.update(_WHERE)
        if at(versions.EXTENDED_ATTRIBUTES):
            properties.update(_WHERE_V2_3)
            properties['os-extended-volumes:volumes_attached'] = \
                _volumes_attached(True)
        if at(versions.HOST_STATUS):
            properties['host_status'] = host_status
        if view == 'rebuild':
            # Its user data is "user_data" (2.57), not the attribute.
            properties.pop('OS-EXT-SRV-ATTR:user_data', None)
    for version, key, schema in _ADDED:
        if at(version):
            properties[key] = schema
            required.append(key)
    if at(versions.EMBEDDED_FLAVOR):
        properties['flavor'] = flavor_embedded
    if view == 'rebuild':
        if at(versions.KEYPAIR_ON_REBUILD):
            properties['key_name'] = _string_or_null
            required.append('key_name')
        if at(versions.USER_DATA_ON_REBUILD):
            properties['user_data'] = user_data
            required.append('user_data')
        properties['adminPass'] = _string
    if view != 'detail' and at(versions.SERVER_GROUPS):
        properties['server_groups'] = server_groups
        required.append('server_groups')
    if at(versions.SERVER_HOSTNAME):
        # Everyone's from 2.90.
        properties['OS-EXT-SRV-ATTR:hostname'] = _string
        if view in ('detail', 'show'):
            required.append('OS-EXT-SRV-ATTR:hostname')
    if at(versions.PINNED_AVAILABILITY_ZONE):
        properties['pinned_availability_zone'] = _string_or_null
        required.append('pinned_availability_zone')
    return rt.obj(properties, sorted(set(required)))


def detail(since):
    """GET /servers/detail from microversion ``since``."""
    return rt.obj({'servers': {'type': 'array',
                               'items': _server('detail', since)},
                   'servers_links': rt.links}, required=['servers'])


def show(since):
    """GET /servers/{id} from microversion ``since``."""
    return rt.wrapped('server', _server('show', since))


def update(since):
    """PUT /servers/{id} from microversion ``since``."""
    return rt.wrapped('server', _server('update', since))


def rebuild(since):
    """The rebuild action from microversion ``since`` (adminPass where
    [api] enable_instance_password shows one)."""
    return rt.wrapped('server', _server('rebuild', since))


LIST_RESPONSE = rt.obj({
    'servers': {'type': 'array', 'items': rt.obj({
        'id': rt.uuid, 'name': _string_or_null, 'links': rt.links})},
    'servers_links': rt.links,
}, required=['servers'])

# A create answers where to find the server; adminPass where [api]
# enable_instance_password shows one.
CREATE_RESPONSE = rt.wrapped('server', rt.obj({
    'id': rt.uuid,
    'links': rt.links,
    'OS-DCF:diskConfig': {'enum': ['AUTO', 'MANUAL']},
    'adminPass': _string,
    'security_groups': security_groups,
}, required=['id', 'links', 'OS-DCF:diskConfig']))
