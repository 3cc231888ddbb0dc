"""A volume's image metadata (``volume_image_metadata``: the
os-set_image_metadata and os-unset_image_metadata actions), in the API
process."""

from tether.db.volume import volume_glance_metadata as db_image_metadata
from tether.objects import fields

S = fields.VolumeStatus
# Cinder refuses changes while a volume is in maintenance or uploads (the
# upload copies the image metadata to the new image). tether also refuses
# them while it is created or downloads: the manager reads which image to
# write from the image metadata's image_id (tether.volume.ops.volumes),
# and a re-image replaces the image metadata when it ends.
REFUSED_STATUSES = (S.CREATING, S.DOWNLOADING, S.MAINTENANCE, S.UPLOADING)


def update(context, volume_id, metadata):
    """Set keys of the volume's image metadata; returns all of it.

    Any key may be set, as in Cinder, the image's own attributes
    (image_id, checksum ...) too: an upload does not copy those to the
    new image (tether.volume.volume_image.upload_properties).
    """
    return db_image_metadata.update(context, volume_id, metadata,
                                    REFUSED_STATUSES, context.project_scope)


def delete(context, volume_id, key):
    db_image_metadata.delete(context, volume_id, key, REFUSED_STATUSES,
                             context.project_scope)
