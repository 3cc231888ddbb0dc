"""The ends of a group's life that depend on its volumes: a group made
of a source (create-from-src) is ``available`` once its last volume is
made, and a group being deleted with its volumes goes with its last
volume (its ``groups`` quota given back). Each runs in tether-volume
(or in the API process, for a volume no backend took), in the
transaction that ends the volume or just after it.

The group's row is held (a conditional UPDATE) before its volumes are
read, so that of two volumes that end at once the second sees the
first's end.
"""

from tether.db import session
from tether.db.volume import group as db_groups
from tether.db.volume import quota as db_quotas
from tether.objects import fields

G = fields.GroupStatus
VS = fields.VolumeStatus
# The statuses of a volume still being made.
_BEING_MADE = (VS.CREATING, VS.DOWNLOADING)


@session.VOLUME.writer
def settle_create(context, group_id):
    """A group being made of a source whose volumes are all made (or
    failed): ``available`` (``error`` if one failed); True if it
    changed."""
    if not db_groups.hold_in_transaction(context, group_id, [G.CREATING]):
        return False
    volumes = db_groups.volumes_in_transaction(context, group_id)
    if any(v.status in _BEING_MADE for v in volumes):
        return False
    failed = any(v.status == VS.ERROR for v in volumes)
    return db_groups.conditional_update(
        context, group_id, {'status': G.ERROR if failed else G.AVAILABLE},
        [G.CREATING])


def hold_deleting_in_transaction(context, group_id):
    """Hold the row of a group being deleted (before its volume's row
    goes); True if it is being deleted."""
    return db_groups.hold_in_transaction(context, group_id, [G.DELETING])


def destroy_in_transaction(context, group):
    """Remove a ``deleting`` group's row and give its quota back."""
    if db_groups.destroy_in_transaction(context, group.id, [G.DELETING]):
        db_quotas.release_in_transaction(context, group.project_id,
                                         {'groups': 1})
        return True
    return False


def finish_delete_in_transaction(context, group_id):
    """After a volume of a group being deleted went (its row held by
    hold_deleting_in_transaction): the group goes too if that was its
    last volume."""
    if db_groups.count_volumes_in_transaction(context, group_id):
        return False
    group = db_groups.get_in_transaction(context, group_id)
    return destroy_in_transaction(context, group)


@session.VOLUME.writer
def fail_delete(context, group_id):
    """A volume of a group being deleted could not be: the group is
    ``error_deleting`` (a delete may be asked again)."""
    return db_groups.conditional_update(
        context, group_id, {'status': G.ERROR_DELETING}, [G.DELETING])
