"""Private volume types' access lists (os-volume-type-access), in the API
process."""

from tether.db.volume import volume_type_access as db_access
from tether.volume.api import types as volume_types


def get_projects(context, name_or_id):
    """The projects that may use a private type (VolumeTypeNotFound, or
    VolumeTypeAccessListNotFound for a public type)."""
    vtype = volume_types.get(context, name_or_id)
    return vtype, db_access.get_projects(context, vtype.id)


def add(context, name_or_id, project_id):
    """Let ``project_id`` see and use a private type (VolumeTypeIsPublic
    for a public one, VolumeTypeAccessExists if it may already)."""
    vtype = volume_types.get(context, name_or_id)
    db_access.add(context, vtype.id, project_id)


def remove(context, name_or_id, project_id):
    """Take a project's access away (VolumeTypeAccessNotFound if it had
    none). Its volumes of the type keep it, as in Cinder."""
    vtype = volume_types.get(context, name_or_id)
    db_access.remove(context, vtype.id, project_id)
