"""A volume's flags in the API process: ``bootable`` (os-set_bootable)
and the ``readonly`` admin metadata (os-update_readonly_flag), each one
conditional UPDATE on the volume's status."""

from tether.db import session
from tether.db.volume import volume as db_volumes
from tether.objects import fields
from tether.volume import exception

S = fields.VolumeStatus
READONLY = 'readonly'
# As Cinder's volume update: any status but maintenance.
BOOTABLE_FROM = tuple(s for s in S.ALL if s != S.MAINTENANCE)


def set_bootable(context, volume_id, bootable):
    if not db_volumes.conditional_update(
            context, volume_id, {'bootable': bootable}, BOOTABLE_FROM,
            context.project_scope):
        current = db_volumes.get(context, volume_id, context.project_scope)
        raise exception.InvalidVolumeStatus(
            volume_id=volume_id, status=current.status,
            expected='any status but maintenance')


@session.VOLUME.writer
def update_readonly(context, volume_id, readonly):
    """``readonly`` ('True' or 'False', as Cinder writes it) in the
    volume's admin metadata, the volume ``available`` (held by the
    UPDATE until the metadata is written: no attachment is made
    meanwhile)."""
    db_volumes.transition(context, volume_id, {}, [S.AVAILABLE],
                          context.project_scope, read_back=False)
    db_volumes.admin_metadata_set(context, volume_id,
                                  {READONLY: str(bool(readonly))})


def is_readonly(volume):
    """Whether the volume's admin metadata makes its attachments
    read-only (Cinder's deprecated way, which overrides the mode)."""
    return volume.admin_metadata.get(READONLY) == 'True'
