"""Volume types (``/types``) and their extra specs, in the API process."""

from oslo_config import cfg
from oslo_utils import uuidutils

from tether.db.volume import volume_type as db_types
from tether.volume import exception

CONF = cfg.CONF

SORT_KEYS = db_types.SORT_KEYS

# Extra specs every reader of a type may see (Cinder's list since Xena);
# the others describe the deployment and are for administrators.
USER_VISIBLE_EXTRA_SPECS = ('RESKEY:availability_zones', 'multiattach',
                            'replication_enabled')


def _visible(context, vtype):
    # tether has no type-access table yet: a private type is for admins.
    return context.is_admin or vtype.is_public


def _lookup(context, name_or_id):
    vtype = db_types.get_by_name_or_id(context, name_or_id)
    if not _visible(context, vtype):
        raise exception.VolumeTypeNotFound(volume_type_id=name_or_id)
    return vtype


def get(context, name_or_id):
    return _lookup(context, name_or_id)


def get_default(context):
    """The type a volume gets when its create names none."""
    try:
        return db_types.get_by_name_or_id(context, CONF.default_volume_type)
    except exception.VolumeTypeNotFound:
        raise exception.VolumeTypeNotFound(
            message='The default volume type %s (option '
                    'default_volume_type) does not exist.'
                    % CONF.default_volume_type)


def get_all(context, is_public=True, marker=None, limit=None, offset=None,
            sort_keys=None, sort_dirs=None):
    """One page of types. Non-admins see public types only.

    ``is_public``: True public, False private, None both (admins).
    """
    if not context.is_admin:
        is_public = True
    return db_types.get_page(
        context, is_public=is_public, marker=marker, limit=limit,
        offset=offset, sort_keys=sort_keys or ('created_at', 'id'),
        sort_dirs=sort_dirs or ('desc', 'desc'))


def create(context, name, description=None, is_public=True,
           extra_specs=None):
    return db_types.create(
        context, {'id': uuidutils.generate_uuid(), 'name': name,
                  'description': description, 'is_public': is_public},
        extra_specs)


def update(context, name_or_id, values):
    """Change ``name``, ``description`` or ``is_public`` (given keys only)."""
    if not values:
        raise exception.InvalidInput(
            reason='specify the volume type name, description, is_public '
                   'or a combination of them')
    vtype = _lookup(context, name_or_id)
    return db_types.update(context, vtype.id, values,
                           protected_name=CONF.default_volume_type)


def delete(context, name_or_id):
    """Delete a type that is neither the default nor used by a volume."""
    vtype = _lookup(context, name_or_id)
    db_types.destroy(context, vtype.id, CONF.default_volume_type)


def get_extra_specs(context, name_or_id):
    return get(context, name_or_id).extra_specs


def update_extra_specs(context, name_or_id, specs):
    """Create or replace some extra specs; refused while volumes use it."""
    vtype = _lookup(context, name_or_id)
    db_types.update_extra_specs(context, vtype.id, specs)
    return dict(specs)


def delete_extra_spec(context, name_or_id, key):
    vtype = _lookup(context, name_or_id)
    db_types.delete_extra_spec(context, vtype.id, key)


def user_visible(extra_specs):
    """The extra specs a reader without read_sensitive may see."""
    return {k: v for k, v in extra_specs.items()
            if k in USER_VISIBLE_EXTRA_SPECS}
