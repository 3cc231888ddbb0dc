"""Server metadata as the compute API changes it (API process): merged,
replaced, one key set or deleted, within the ``metadata_items`` quota,
each change one conditional UPDATE of the server."""

from tether.compute import exception
from tether.compute import quota
from tether.compute import quota_exception
from tether.db.compute import instance as db_instances
from tether.objects.fields import VmState

# Nova changes metadata of a server with no task that is active,
# stopped, paused or suspended.
CHANGEABLE = (VmState.ACTIVE, VmState.STOPPED, VmState.PAUSED,
              VmState.SUSPENDED)


def check_quota(context, metadata,
                error=quota_exception.MetadataLimitExceeded):
    """``error`` (MetadataLimitExceeded) if ``metadata`` has more items
    than the caller's ``metadata_items`` limit (-1: none), as Nova checks
    it."""
    allowed = quota.limit_of(context, 'metadata_items', context.project_id,
                             context.user_id)
    if 0 <= allowed < len(metadata or {}):
        raise error(allowed=allowed)


def _change(context, instance, change, action='update metadata'):
    # servers.check_unlocked (which imports this module).
    if instance.locked and not context.is_admin:
        raise exception.InstanceIsLocked(instance_id=instance.uuid)

    def checked(old):
        new = change(old)
        check_quota(context, new)
        return new
    return db_instances.update_metadata(context, instance.uuid, checked,
                                        CHANGEABLE, action=action)


def update(context, instance, metadata, replace=False):
    """Merge ``metadata`` into the server's (``replace``: it becomes the
    server's metadata); the server's metadata after."""
    return _change(context, instance,
                   lambda old: dict(metadata) if replace
                   else dict(old, **metadata))


def delete_key(context, instance, key):
    """Remove one item; MetadataItemNotFound if the server has none."""
    def without(old):
        if key not in old:
            raise exception.MetadataItemNotFound()
        return {k: v for k, v in old.items() if k != key}
    _change(context, instance, without, action='delete metadata')
