"""Volume types (``/types``) and their extra specs, in the API process."""

from oslo_config import cfg
from oslo_utils import uuidutils

from tether.db import session
from tether.db.volume import quota as db_quotas
from tether.db.volume import volume_type as db_types
from tether.db.volume import volume_type_access as db_access
from tether.volume.api import default_types
from tether.volume import exception
from tether.volume import quota

CONF = cfg.CONF

SORT_KEYS = db_types.SORT_KEYS

# Extra specs every reader of a type may see (Cinder's list since Xena);
# the others describe the deployment and are for administrators.
USER_VISIBLE_EXTRA_SPECS = ('RESKEY:availability_zones', 'multiattach',
                            'replication_enabled')


def visible(context, vtype):
    """Whether the caller may see and use ``vtype``: a private type is for
    administrators and the projects on its access list."""
    return (context.is_admin or vtype.is_public or
            db_access.has_access(context, vtype.id, context.project_id))


def _lookup(context, name_or_id):
    vtype = db_types.get_by_name_or_id(context, name_or_id)
    if not visible(context, vtype):
        raise exception.VolumeTypeNotFound(volume_type_id=name_or_id)
    return vtype


def get(context, name_or_id):
    return _lookup(context, name_or_id)


def get_default(context):
    """The type the caller's volumes get when their create names none:
    its project's default (/default-types), else the configured one."""
    own = default_types.type_for(context, context.project_id)
    if own is not None:
        return db_types.get_by_name_or_id(context, own)
    try:
        return db_types.get_by_name_or_id(context, CONF.default_volume_type)
    except exception.VolumeTypeNotFound:
        raise exception.VolumeTypeNotFound(
            message='The default volume type %s (option '
                    'default_volume_type) does not exist.'
                    % CONF.default_volume_type)


def get_all(context, is_public=True, marker=None, limit=None, offset=None,
            sort_keys=None, sort_dirs=None):
    """One page of types, as Cinder lists them: non-admins see the public
    types and the private ones their project has access to.

    ``is_public``: True public (and those of the caller's access lists),
    False private, None both (admins).
    """
    if not context.is_admin:
        is_public = True
    return db_types.get_page(
        context, is_public=is_public, project_id=context.project_id,
        all_private=context.is_admin, marker=marker, limit=limit,
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
    return _update(context, vtype.id, values)


@session.VOLUME.writer
def _update(context, type_id, values):
    """The change, and (a type renamed) its quota resources renamed with
    it (``volumes_<name>`` ...: limits, classes, usages, reservations),
    in one transaction, as Cinder renames them."""
    before = db_types.get_by_name_or_id(context, type_id).name
    vtype = db_types.update(context, type_id, values,
                            protected_name=CONF.default_volume_type)
    if vtype.name != before:
        db_quotas.rename_resources(context, dict(zip(
            quota.type_resources(before), quota.type_resources(vtype.name))))
    return vtype


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
