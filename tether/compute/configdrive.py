"""What a server's config drive holds, in Nova's layout, made on its
compute host from the server's record: ``openstack/latest/`` with
``meta_data.json`` (its uuid, name, hostname, availability zone, project,
metadata and the public key of its key pair), ``user_data`` (decoded, if
it has any), ``vendor_data.json``, ``vendor_data2.json`` and
``network_data.json`` (empty: tether's servers have no networks). No
``ec2/`` tree.
"""

import base64
import binascii

from oslo_config import cfg
from oslo_serialization import jsonutils

from tether.conf import compute as conf_compute  # noqa: F401

CONF = cfg.CONF

LATEST = 'openstack/latest/'
# Nova's value of instances.config_drive for a server that has one.
TRUE = 'True'


def asked(instance):
    """Whether the server's record says it has a config drive."""
    return bool(instance.obj_attr_is_set('config_drive')
                and instance.config_drive)


def required(instance):
    """Whether the server gets a config drive: its create asked for one,
    or this host gives every server one (force_config_drive)."""
    return asked(instance) or CONF.force_config_drive


def _key_type(public_key):
    return 'x509' if public_key.startswith('-----BEGIN') else 'ssh'


def meta_data(instance):
    """openstack/latest/meta_data.json, as a dict."""
    meta = {
        'uuid': instance.uuid,
        'name': instance.display_name,
        'hostname': instance.hostname,
        'launch_index': 0,
        'availability_zone': instance.availability_zone,
        'project_id': instance.project_id,
        'meta': dict(instance.metadata or {}),
        'devices': [],
    }
    if instance.key_name:
        data = instance.key_data or ''
        meta['public_keys'] = {instance.key_name: data}
        meta['keys'] = [{'name': instance.key_name,
                         'type': _key_type(data), 'data': data}]
    return meta


def files(instance):
    """{path: bytes} of the server's config drive."""
    out = {
        LATEST + 'meta_data.json': jsonutils.dump_as_bytes(
            meta_data(instance), sort_keys=True),
        LATEST + 'vendor_data.json': b'{}',
        LATEST + 'vendor_data2.json': b'{}',
        LATEST + 'network_data.json': jsonutils.dump_as_bytes(
            {'links': [], 'networks': [], 'services': []}),
    }
    if instance.user_data:
        try:
            out[LATEST + 'user_data'] = base64.b64decode(
                instance.user_data, validate=True)
        except (binascii.Error, ValueError):
            # The API checked it is base64; a row written otherwise
            # carries it as it is.
            out[LATEST + 'user_data'] = instance.user_data.encode('utf-8')
    return out
