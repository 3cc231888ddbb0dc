"""QoS specs (``/qos-specs``) in the API process: create, read, change
their keys, associate them with volume types, delete them. Their
front-end keys reach the compute host in the connection info of the
type's volumes (tether.volume.qos); tether's NFS backend applies no
back-end keys."""

from oslo_utils import uuidutils

from tether.db.volume import qos_specs as db_qos
from tether.volume.api import types as volume_types

SORT_KEYS = db_qos.SORT_KEYS
FILTERS = db_qos.FILTERS
CONSUMERS = ('front-end', 'back-end', 'both')
DEFAULT_CONSUMER = 'back-end'


def get(context, qos_specs_id):
    return db_qos.get(context, qos_specs_id)


def get_all(context, filters=None, marker=None, limit=None, offset=None,
            sort_keys=None, sort_dirs=None):
    return db_qos.get_all(context, filters=filters, marker=marker,
                          limit=limit, offset=offset,
                          sort_keys=sort_keys or ('created_at', 'id'),
                          sort_dirs=sort_dirs or ('desc', 'desc'))


def create(context, name, specs):
    """New QoS specs; ``specs`` may hold ``consumer`` (else back-end)."""
    specs = dict(specs)
    consumer = specs.pop('consumer', None) or DEFAULT_CONSUMER
    return db_qos.create(context, {'id': uuidutils.generate_uuid(),
                                   'name': name, 'consumer': consumer},
                         specs)


def update(context, qos_specs_id, specs):
    """Create or replace keys (``consumer`` changes the consumer)."""
    specs = dict(specs)
    consumer = specs.pop('consumer', None)
    return db_qos.update(context, qos_specs_id, specs, consumer=consumer)


def delete_keys(context, qos_specs_id, keys):
    db_qos.delete_keys(context, qos_specs_id, keys)


def delete(context, qos_specs_id, force=False):
    db_qos.destroy(context, qos_specs_id, force=force)


def associations(context, qos_specs_id):
    return db_qos.associations(context, qos_specs_id)


def _type_id(context, type_id):
    # By ID or name, as the types API finds a type.
    return volume_types.get(context, type_id).id


def associate(context, qos_specs_id, type_id):
    db_qos.get(context, qos_specs_id)
    db_qos.associate(context, qos_specs_id, _type_id(context, type_id))


def disassociate(context, qos_specs_id, type_id):
    db_qos.get(context, qos_specs_id)
    db_qos.disassociate(context, qos_specs_id, _type_id(context, type_id))


def disassociate_all(context, qos_specs_id):
    db_qos.disassociate_all(context, qos_specs_id)
