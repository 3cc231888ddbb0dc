"""Server metadata as the compute API changes it (API process): merged,
replaced, one key set or deleted, within the ``metadata_items`` quota,
each change one conditional UPDATE of the server."""

from oslo_config import cfg

from tether.compute import exception
from tether.db.compute import instance as db_instances
from tether.objects.fields import VmState

CONF = cfg.CONF

# Nova changes metadata of a server with no task that is active,
# stopped, paused or suspended.
CHANGEABLE = (VmState.ACTIVE, VmState.STOPPED, VmState.PAUSED,
              VmState.SUSPENDED)


def check_quota(metadata, error=exception.MetadataLimitExceeded):
    """``error`` (MetadataLimitExceeded) if ``metadata`` has more items
    than ``[quota] metadata_items`` (-1: no limit)."""
    allowed = CONF.quota.metadata_items
    if 0 <= allowed < len(metadata or {}):
        raise error(allowed=allowed)


def _change(context, instance, change, action='update metadata'):
    # servers.check_unlocked (which imports this module).
    if instance.locked and not context.is_admin:
        raise exception.InstanceIsLocked(instance_id=instance.uuid)

    def checked(old):
        new = change(old)
        check_quota(new)
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
