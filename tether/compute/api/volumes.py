"""The volume API's volumes through the compute API (``/os-volumes``, a
proxy Nova serves to 2.35), in the API process: every call is the
volume API's, made with the caller's token."""

from tether.compute import volume_client


def list_volumes(context, limit=None, offset=None):
    return volume_client.for_user(context).list_volumes(limit=limit,
                                                        offset=offset)


def get(context, volume_id):
    return volume_client.for_user(context).get_volume(volume_id)


def create(context, size, name=None, description=None, volume_type=None,
           metadata=None, availability_zone=None, snapshot_id=None):
    """A new volume; of a snapshot, which must exist first (a 404 names
    the snapshot, as Nova's does)."""
    client = volume_client.for_user(context)
    if snapshot_id is not None:
        client.get_snapshot(snapshot_id)
    return client.create_volume(
        size, name=name, availability_zone=availability_zone,
        description=description, volume_type=volume_type,
        metadata=metadata, snapshot_id=snapshot_id,
        # A 404 here is for what the body names (a volume type).
        not_found=volume_client.refused)


def delete(context, volume_id):
    volume_client.for_user(context).delete_volume(volume_id)
