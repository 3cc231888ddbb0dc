"""JSON schemas of /servers: create, update, list queries."""

import copy

from tether.api import validation

name = {'type': 'string', 'minLength': 1, 'maxLength': 255,
        'pattern': r'^(?! )[^\x00-\x1f]*(?<! )$',
        'description': 'a name of 1 to 255 printable characters, without '
                       'leading or trailing spaces'}
uuid = {'type': 'string',
        'pattern': '^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?'
                   '[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$',
        'description': 'a UUID'}
description = {'type': ['string', 'null'], 'maxLength': 255,
               'pattern': r'^[^\x00-\x08\x0b\x0c\x0e-\x1f]*$'}
tag = {'type': 'string', 'maxLength': 60, 'pattern': '^[^,/]*$',
       'description': 'a tag of up to 60 characters without "," or "/"'}
boolean = validation.boolean
# What a server is given for itself and kept as given (Nova's types).
user_data = {'type': 'string', 'format': 'base64', 'maxLength': 65535,
             'description': 'base64 of at most 65535 characters'}
access_ip_v4 = {'type': 'string', 'format': 'ipv4',
                'description': 'an IPv4 address'}
access_ip_v6 = {'type': 'string', 'format': 'ipv6',
                'description': 'an IPv6 address'}
# Files for the config drive (2.1 to 2.56; Nova's schema): checked
# against the [quota] limits (tether.compute.api.personality), kept
# nowhere.
personality = {
    'type': 'array',
    'items': {
        'type': 'object',
        'properties': {
            'path': {'type': 'string'},
            'contents': {'type': 'string', 'format': 'base64',
                         'description': 'base64'},
        },
        'additionalProperties': False,
    },
}
disk_config = {'type': 'string', 'enum': ['AUTO', 'MANUAL'],
               'description': 'AUTO or MANUAL'}
metadata = {
    'type': 'object',
    'patternProperties': {
        '^[a-zA-Z0-9-_:. ]{1,255}$': {'type': 'string', 'maxLength': 255}},
    'additionalProperties': False}

block_device_mapping_v2 = {
    'type': 'object',
    'properties': {
        'source_type': {'type': 'string',
                        'enum': ['volume', 'image', 'snapshot', 'blank'],
                        'description': '"volume", "image", "snapshot" or '
                                       '"blank"'},
        'destination_type': {'type': 'string', 'enum': ['volume', 'local'],
                             'description': '"volume" or "local"'},
        'uuid': uuid,
        'boot_index': {'type': ['integer', 'string', 'null'],
                       'pattern': '^-?[0-9]+$',
                       'minimum': -1, 'maximum': 255},
        'delete_on_termination': boolean,
        'device_name': {'type': ['string', 'null'], 'maxLength': 255},
        'volume_size': {'type': ['integer', 'string', 'null'],
                        'pattern': '^[0-9]+$', 'minimum': 0,
                        'maximum': validation.DB_MAX_INT},
        'disk_bus': {'type': ['string', 'null'], 'maxLength': 255},
        'device_type': {'type': ['string', 'null'], 'maxLength': 255},
        'guest_format': {'type': ['string', 'null'], 'maxLength': 255},
    },
    # uuid names the source, except of a blank volume (checked in
    # tether.compute.api.block_device_mapping.plan, as Nova does).
    'required': ['source_type'],
    'additionalProperties': False,
}
block_device_mapping_v2_v242 = copy.deepcopy(block_device_mapping_v2)
block_device_mapping_v2_v242['properties']['tag'] = tag

_server = {
    'type': 'object',
    'properties': {
        'name': name,
        # The image of a local root disk; empty (or left out) for a
        # server that boots from a volume.
        'imageRef': {'type': 'string',
                     'pattern': '^(%s)?$' % uuid['pattern'][1:-1],
                     'description': 'an image ID, or empty for a server '
                                    'that boots from a volume'},
        'flavorRef': {'type': ['string', 'integer'], 'minLength': 1,
                      'maxLength': 255},
        'block_device_mapping_v2': {
            'type': 'array', 'minItems': 1, 'maxItems': 32,
            'items': block_device_mapping_v2},
        # "auto" asks the cloud to give the server what networks it can
        # without being told (openstacksdk's create_server sends it when
        # no network is named): with none to give, tether gives none.
        'networks': {'type': 'string', 'enum': ['none', 'auto'],
                     'description': '"none" or "auto" (tether gives '
                                    'servers no networks)'},
        'min_count': {'type': ['integer', 'string'], 'pattern': '^1$',
                      'minimum': 1, 'maximum': 1,
                      'description': '1 (one server per request)'},
        'max_count': {'type': ['integer', 'string'], 'pattern': '^1$',
                      'minimum': 1, 'maximum': 1,
                      'description': '1 (one server per request)'},
        'availability_zone': {'type': 'string', 'minLength': 1,
                              'maxLength': 255},
        'metadata': metadata,
        # A key pair of the caller's (/os-keypairs).
        'key_name': name,
        # Answered back and kept nowhere (tether.compute.api.admin_password).
        'adminPass': {'type': 'string', 'maxLength': 255},
        'OS-DCF:diskConfig': disk_config,
        'user_data': user_data,
        'accessIPv4': access_ip_v4,
        'accessIPv6': access_ip_v6,
        'personality': personality,
        # A config drive for the guest (a boolean, as Nova's; "" is
        # false, as tether took it before it made config drives).
        'config_drive': {'anyOf': [boolean, {'type': 'string',
                                             'enum': ['']}],
                         'description': 'a boolean: whether the guest gets '
                                        'a config drive'},
        'return_reservation_id': {'type': ['boolean', 'string'],
                                  'enum': [False, 'False', 'false']},
    },
    'required': ['name', 'flavorRef'],
    'additionalProperties': False,
}


# Scheduler hints (Nova's types). tether applies "group" (the server
# group the server joins); the others are those of Nova's scheduler
# filters that are not enabled by default, and are accepted and ignored
# as such a Nova ignores them, as are hints Nova does not know.
_group_uuid = dict(uuid, pattern=validation.uuid['pattern'])
scheduler_hints = {
    'type': 'object',
    'properties': {
        'group': {'oneOf': [
            _group_uuid,
            {'type': 'array', 'items': _group_uuid, 'minItems': 1,
             'maxItems': 1}],
            'description': 'the UUID of a server group (a server joins one '
                           'group at most)'},
        'different_host': {'oneOf': [
            uuid, {'type': 'array', 'items': uuid}]},
        'same_host': {'type': ['string', 'array'], 'items': uuid},
        'query': {'type': ['string', 'object']},
        'target_cell': name,
        'different_cell': {'type': ['string', 'array'],
                           'items': {'type': 'string'}},
        'build_near_host_ip': {'type': 'string', 'oneOf': [
            {'format': 'ipv4'}, {'format': 'ipv6'}]},
        'cidr': {'type': 'string', 'pattern': '^/[0-9a-f.:]+$'},
    },
    'additionalProperties': True,
}


def _create(server):
    return {'type': 'object',
            'properties': {'server': server,
                           'os:scheduler_hints': scheduler_hints,
                           'OS-SCH-HNT:scheduler_hints': scheduler_hints},
            'required': ['server'], 'additionalProperties': False}


CREATE = _create(_server)

_server_v219 = copy.deepcopy(_server)
_server_v219['properties']['description'] = description
CREATE_V2_19 = _create(_server_v219)

# 2.37: networks is required (tether: "none" or "auto").
_server_v237 = copy.deepcopy(_server_v219)
_server_v237['required'].append('networks')
CREATE_V2_37 = _create(_server_v237)

_server_v242 = copy.deepcopy(_server_v237)
_server_v242['properties']['block_device_mapping_v2']['items'] = \
    block_device_mapping_v2_v242
CREATE_V2_42 = _create(_server_v242)

# 2.57: no personality.
_server_v257 = copy.deepcopy(_server_v242)
del _server_v257['properties']['personality']
CREATE_V2_57 = _create(_server_v257)

hostname = {
    'type': 'string', 'minLength': 1, 'maxLength': 63,
    'pattern': '^[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?$',
    'description': 'a hostname of 1 to 63 letters, digits and "-"'}
_server_v290 = copy.deepcopy(_server_v257)
_server_v290['properties']['hostname'] = hostname
CREATE_V2_90 = _create(_server_v290)

# 2.94: a fully qualified name, dot-separated labels as above, at most
# 255 characters in all (what the hostname column holds).
fqdn_hostname = {
    'type': 'string', 'minLength': 1, 'maxLength': 255,
    'pattern': r'^[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?'
               r'(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$',
    'description': 'a hostname or fully qualified domain name of at most '
                   '255 characters: labels of 1 to 63 letters, digits and '
                   '"-" (not first or last), separated by dots'}
_server_v294 = copy.deepcopy(_server_v290)
_server_v294['properties']['hostname'] = fqdn_hostname
CREATE_V2_94 = _create(_server_v294)


def _update(properties):
    return {'type': 'object',
            'properties': {'server': {
                'type': 'object', 'properties': properties,
                'additionalProperties': False}},
            'required': ['server'], 'additionalProperties': False}


# The access addresses may be changed; OS-DCF:diskConfig is accepted and
# changes nothing (tether's root disks are never repartitioned).
_updatable = {'name': name, 'accessIPv4': access_ip_v4,
              'accessIPv6': access_ip_v6, 'OS-DCF:diskConfig': disk_config}
UPDATE = _update(_updatable)
UPDATE_V2_19 = _update(dict(_updatable, description=description))
UPDATE_V2_90 = _update(dict(_updatable, description=description,
                            hostname=hostname))
UPDATE_V2_94 = _update(dict(_updatable, description=description,
                            hostname=fqdn_hostname))

_status = {'type': 'string', 'maxLength': 32}
_multi = {'type': ['string', 'array'], 'items': {'type': 'string'}}

LIST_QUERY = {
    'type': 'object',
    'properties': {
        'name': {'type': 'string', 'maxLength': 255},
        'status': _status,
        'host': {'type': 'string', 'maxLength': 255},
        'project_id': {'type': 'string', 'maxLength': 255},
        'tenant_id': {'type': 'string', 'maxLength': 255},
        'all_tenants': {'type': 'string', 'maxLength': 16},
        'deleted': {'type': 'string', 'maxLength': 16},
        'limit': validation.non_negative_integer_string,
        'marker': {'type': 'string', 'maxLength': 255},
        'changes-since': {'type': 'string', 'maxLength': 64},
        'availability_zone': {'type': 'string', 'maxLength': 255},
        'flavor': {'type': 'string', 'maxLength': 255},
        'image': {'type': 'string', 'maxLength': 255},
        'sort_key': _multi,
        'sort_dir': _multi,
        'uuid': {'type': 'string', 'maxLength': 36},
        'ip': {'type': 'string', 'maxLength': 64},
        'ip6': {'type': 'string', 'maxLength': 64},
        # 2.73; a boolean (true, false, 1, 0, yes, no ...).
        'locked': {'type': 'string', 'maxLength': 16},
    },
    # Nova ignores query parameters it does not know.
    'additionalProperties': True,
}
