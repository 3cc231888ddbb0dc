"""The end of a volume's delete: the same transaction in the API process
(a volume that never reached a backend) and in tether-volume (after the
driver removed its storage)."""

from tether.db import session
from tether.db.volume import quota as db_quotas
from tether.db.volume import volume as db_volumes
from tether.objects import fields

S = fields.VolumeStatus


@session.VOLUME.writer
def finish_delete(context, volume):
    """Remove a ``deleting`` volume's row and give its quota back, at once."""
    if db_volumes.destroy_in_transaction(context, volume.id, [S.DELETING]):
        db_quotas.release_in_transaction(
            context, volume.project_id,
            {'volumes': 1, 'gigabytes': volume.size})
        db_quotas.rollback(context, db_quotas.get_reservations_for(
            context, volume.id))
