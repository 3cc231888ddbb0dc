"""JSON schemas of the server actions tether serves."""

import copy

from tether.api.compute.schemas import servers
from tether.api import validation

START = {'type': 'object',
         'properties': {'os-start': {'type': ['object', 'null']}},
         'required': ['os-start'], 'additionalProperties': False}

STOP = {'type': 'object',
        'properties': {'os-stop': {'type': ['object', 'null']}},
        'required': ['os-stop'], 'additionalProperties': False}

REBOOT = {
    'type': 'object',
    'properties': {'reboot': {
        'type': 'object',
        'properties': {'type': {
            'type': 'string',
            'enum': ['HARD', 'Hard', 'hard', 'SOFT', 'Soft', 'soft'],
            'description': 'HARD or SOFT'}},
        'required': ['type'], 'additionalProperties': False}},
    'required': ['reboot'], 'additionalProperties': False}

# rebuild: Nova's fields at each version, as tether takes them. tether
# has no passwords to set, no ephemeral disks and no signed images:
# adminPass (answered back, see tether.compute.api.admin_password) and
# preserve_ephemeral are
# accepted and change nothing (Nova's clients and Tempest send them);
# trusted_image_certificates may only be null.
_image_ref = {'type': 'string', 'minLength': 1, 'maxLength': 255,
              'description': 'the id (or a URL ending with the id) of an '
                             'image'}
_rebuild = {
    'type': 'object',
    'properties': {
        'imageRef': _image_ref,
        'name': servers.name,
        'metadata': servers.metadata,
        'adminPass': {'type': 'string', 'maxLength': 255},
        'preserve_ephemeral': validation.boolean,
        'OS-DCF:diskConfig': servers.disk_config,
        'accessIPv4': servers.access_ip_v4,
        'accessIPv6': servers.access_ip_v6,
        'personality': servers.personality,
    },
    'required': ['imageRef'],
    'additionalProperties': False,
}


def _rebuild_body(rebuild):
    return {'type': 'object', 'properties': {'rebuild': rebuild},
            'required': ['rebuild'], 'additionalProperties': False}


def _with(base, **properties):
    rebuild = copy.deepcopy(base)
    rebuild['properties'].update(properties)
    return rebuild


_null = {'type': 'null', 'description': 'null (tether has none)'}
_rebuild_v219 = _with(_rebuild, description=servers.description)
# A key pair of the caller's, or null to take the server's away (2.54).
_rebuild_v254 = _with(_rebuild_v219, key_name={
    'oneOf': [servers.name, {'type': 'null'}]})
# New user data for the server, or null for none; no personality (2.57).
_rebuild_v257 = _with(_rebuild_v254, user_data={
    'oneOf': [servers.user_data, {'type': 'null'}]})
del _rebuild_v257['properties']['personality']
_rebuild_v263 = _with(_rebuild_v257, trusted_image_certificates=_null)
_rebuild_v290 = _with(_rebuild_v263,
                      hostname=servers.hostname)
# The volume-backed rebuild spec's field: whether to re-image the root
# volume (a strict boolean; true is what 2.93 does anyway).
_rebuild_v293 = _with(_rebuild_v290, reimage_boot_volume={
    'type': 'boolean', 'description': 'true or false (a JSON boolean)'})

REBUILD = _rebuild_body(_rebuild)
REBUILD_V2_19 = _rebuild_body(_rebuild_v219)
REBUILD_V2_54 = _rebuild_body(_rebuild_v254)
REBUILD_V2_57 = _rebuild_body(_rebuild_v257)
REBUILD_V2_63 = _rebuild_body(_rebuild_v263)
REBUILD_V2_90 = _rebuild_body(_rebuild_v290)
REBUILD_V2_93 = _rebuild_body(_rebuild_v293)
REBUILD_V2_94 = _rebuild_body(_with(_rebuild_v293,
                                    hostname=servers.fqdn_hostname))
