"""Group types (``/group_types``) and their group specs, in the API
process."""

from oslo_config import cfg
from oslo_utils import uuidutils

from tether.db.volume import group_type as db_group_types
from tether.volume import group_exception as exception

CONF = cfg.CONF
SORT_KEYS = db_group_types.SORT_KEYS


def visible(context, group_type):
    """Whether the caller may see and use the type: a private one is for
    administrators (Cinder serves no access lists of group types)."""
    return context.is_admin or group_type.is_public


def get(context, type_id):
    """The type of that id, as Cinder's show finds it (not by name)."""
    group_type = db_group_types.get(context, type_id)
    if not visible(context, group_type):
        raise exception.GroupTypeNotFound(group_type_id=type_id)
    return group_type


def find(context, name_or_id):
    """The type a group create names, by id or by name."""
    group_type = db_group_types.get_by_name_or_id(context, name_or_id)
    if not visible(context, group_type):
        raise exception.GroupTypeNotFound(group_type_id=name_or_id)
    return group_type


def get_default(context):
    """The type ``default_group_type`` names (404 without one)."""
    name = CONF.default_group_type
    try:
        if name is None:
            raise exception.GroupTypeNotFound(group_type_id=None)
        return db_group_types.get_by_name_or_id(context, name)
    except exception.GroupTypeNotFound:
        raise exception.DefaultGroupTypeNotFound(name=name)


def get_all(context, is_public=True, marker=None, limit=None, offset=None,
            sort_keys=None, sort_dirs=None):
    """One page of types: administrators choose public, private or both
    (``is_public`` None), the others see the public ones."""
    if not context.is_admin:
        is_public = True
    return db_group_types.get_page(
        context, is_public=is_public, marker=marker, limit=limit,
        offset=offset, sort_keys=sort_keys or ('created_at', 'id'),
        sort_dirs=sort_dirs or ('desc', 'desc'))


def create(context, name, description=None, is_public=True,
           group_specs=None):
    return db_group_types.create(
        context, {'id': uuidutils.generate_uuid(), 'name': name,
                  'description': description, 'is_public': is_public},
        group_specs)


def update(context, type_id, values):
    get(context, type_id)
    return db_group_types.update(context, type_id, values)


def delete(context, type_id):
    """Delete a type no group has (GroupTypeInUse, 400, if one has)."""
    get(context, type_id)
    db_group_types.destroy(context, type_id)


def get_specs(context, type_id):
    return get(context, type_id).group_specs


def update_specs(context, type_id, specs):
    get(context, type_id)
    return db_group_types.update_specs(context, type_id, specs)


def delete_spec(context, type_id, key):
    get(context, type_id)
    db_group_types.delete_spec(context, type_id, key)
