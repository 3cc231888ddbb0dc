"""The volume API's snapshots through the compute API (``/os-snapshots``,
a proxy Nova serves to 2.35), in the API process. A volume API that
serves no snapshots (a 404 for the path) shows an empty list, a show or
a delete a SnapshotNotFound, a create SnapshotsNotServed (for a volume
that exists)."""

from tether.compute import volume_client


def list_snapshots(context, limit=None, offset=None):
    return volume_client.for_user(context).list_snapshots(limit=limit,
                                                          offset=offset)


def get(context, snapshot_id):
    return volume_client.for_user(context).get_snapshot(snapshot_id)


def create(context, volume_id, name=None, description=None, force=False):
    client = volume_client.for_user(context)
    # The volume first: an unknown one is a 404 that names it, and a 404
    # for the create that follows then means "no snapshots here".
    client.get_volume(volume_id)
    return client.create_snapshot(volume_id, name=name,
                                  description=description, force=force)


def delete(context, snapshot_id):
    volume_client.for_user(context).delete_snapshot(snapshot_id)
