"""A volume's metadata (``/volumes/{id}/metadata``), in the API process."""

from tether.db.volume import volume as db_volumes
from tether.objects.volume import volume as volume_obj
from tether.volume import exception


def check_keys(keys):
    """InvalidInput for keys only the volume service may set."""
    reserved = sorted(set(keys) & set(volume_obj.RESERVED_METADATA_KEYS))
    if reserved:
        raise exception.InvalidInput(
            reason='metadata key %s is reserved: the volume service sets '
                   'it (an extend in progress)' % ', '.join(reserved))


def update_metadata(context, volume_id, metadata, delete_others=False):
    check_keys(metadata)
    return db_volumes.metadata_update(context, volume_id, metadata,
                                      delete_others, context.project_scope)


def delete_metadata(context, volume_id, key):
    check_keys([key])
    db_volumes.metadata_delete(context, volume_id, key, context.project_scope)
