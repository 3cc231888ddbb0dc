"""Snapshots of the volume API as the compute API's /os-snapshots shows
them: Nova's legacy keys."""


def snapshot(snap):
    return {
        'id': snap['id'],
        'volumeId': snap['volume_id'],
        'status': snap['status'],
        # Nova shows the snapshot's size as its size.
        'size': snap['size'],
        'createdAt': snap.get('created_at'),
        'displayName': snap.get('name'),
        'displayDescription': snap.get('description'),
    }
