"""Projects' default volume types (``/default-types``, 3.62), in the API
process: the type a project's volumes get when their create names none,
before ``[DEFAULT] default_volume_type``."""

from tether.db.volume import default_type as db_defaults
from tether.db.volume import volume_type as db_types
from tether.volume import exception


def put(context, project_id, type_name_or_id):
    """Make the type (a name or an ID; any type, public or private) the
    project's default; a type that does not exist is bad input, as in
    Cinder."""
    try:
        vtype = db_types.get_by_name_or_id(context, type_name_or_id)
    except exception.VolumeTypeNotFound as e:
        raise exception.InvalidInput(reason=str(e))
    try:
        return db_defaults.put(context, project_id, vtype.id)
    except exception.VolumeTypeNotFound as e:
        # Deleted since it was found.
        raise exception.InvalidInput(reason=str(e))


def get(context, project_id):
    default = db_defaults.get(context, project_id)
    if default is None:
        raise exception.DefaultTypeNotFound(project_id=project_id)
    return default


def get_all(context):
    return db_defaults.get_all(context)


def delete(context, project_id):
    db_defaults.delete(context, project_id)


def type_for(context, project_id):
    """The name or ID of the type of the project's volumes created
    without one: its own default, else the configured one (None)."""
    default = db_defaults.get(context, project_id)
    return default.volume_type_id if default is not None else None
