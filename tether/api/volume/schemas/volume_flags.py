"""Schemas of the volume actions os-set_bootable and
os-update_readonly_flag (Cinder's: a boolean or one of its strings)."""

from tether.api import validation as v

SET_BOOTABLE = v.action('os-set_bootable', {
    'type': 'object',
    'properties': {'bootable': v.boolean},
    'required': ['bootable'],
    'additionalProperties': False,
})

UPDATE_READONLY_FLAG = v.action('os-update_readonly_flag', {
    'type': 'object',
    'properties': {'readonly': v.boolean},
    'required': ['readonly'],
    'additionalProperties': False,
})
