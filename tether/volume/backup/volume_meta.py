"""What a backup keeps of its volume besides the data, and what a restore
gives back: Cinder's volume metadata container (version 2), JSON text in
the backup's metadata file:

* ``volume-base-metadata``: the volume's fields (a restore sets the name
  and description of a volume made for it, as Cinder does);
* ``volume-metadata``: its metadata (a restore replaces the volume's);
* ``volume-glance-metadata``: what it knows of the image it was made of
  (a restore replaces it, and the volume is bootable).
"""

from oslo_serialization import jsonutils

from tether.db import session
from tether.db.volume import volume as db_volumes
from tether.volume import backup_state

VERSION = 2
BASE = 'volume-base-metadata'
METADATA = 'volume-metadata'
IMAGE = 'volume-glance-metadata'
# A volume made for a restore is named so (the API) until it takes the
# name its backup kept.
RESTORE_NAME_PREFIX = 'restore_backup_'


def gather(volume):
    """The text kept with a backup of ``volume`` (an object)."""
    base = {
        'id': volume.id, 'display_name': volume.name,
        'display_description': volume.description, 'size': volume.size,
        'bootable': volume.bootable, 'volume_type_id': volume.volume_type_id,
        'availability_zone': volume.availability_zone,
        'project_id': volume.project_id, 'user_id': volume.user_id,
        'multiattach': volume.multiattach, 'encryption_key_id': None,
    }
    container = {'version': VERSION, BASE: base}
    if volume.metadata:
        container[METADATA] = dict(volume.metadata)
    if volume.image_metadata:
        container[IMAGE] = dict(volume.image_metadata)
    return jsonutils.dumps(container)


def _parse(text):
    if not text:
        return {}
    try:
        container = jsonutils.loads(text)
    except ValueError:
        return {}
    if not isinstance(container, dict) or \
            container.get('version') not in (1, 2):
        return {}
    return container


def volume_values(text, volume):
    """The columns of ``volume`` (the restore's target) the kept text
    sets: its name and description if it was made for the restore (named
    by the API, or not at all) and the backed-up volume had a name; its
    bootable flag if the backed-up volume was made of an image."""
    container = _parse(text)
    values = {}
    base = container.get(BASE) or {}
    name = volume.name or ''
    if base.get('display_name') and (
            not name or name.startswith(RESTORE_NAME_PREFIX)):
        values['name'] = base['display_name']
        values['description'] = base.get('display_description')
    if container.get(IMAGE):
        values['bootable'] = True
    return values


@session.VOLUME.writer
def finish_restore(context, backup_id, volume, text):
    """One transaction: the volume (still ``restoring-backup``) takes
    what the backup kept of its volume and goes ``available``, the
    backup ``available``; True if the volume was still restoring."""
    if not backup_state.end_restore(context, backup_id, volume.id,
                                    'available',
                                    volume_values(text, volume)):
        return False
    container = _parse(text)
    if METADATA in container:
        db_volumes.metadata_update(context, volume.id,
                                   dict(container[METADATA]), True)
    if container.get(IMAGE):
        db_volumes.image_metadata_replace_in_transaction(
            context, volume.id, dict(container[IMAGE]))
    return True
