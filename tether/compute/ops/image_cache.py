"""The image cache manager of a compute host (Nova's): a periodic task
that tells the driver which images the servers of the host are made of,
so that it keeps their cached copies and removes the others once no one
has used them for ``[image_cache]
remove_unused_original_minimum_age_seconds``."""

from oslo_config import cfg
from oslo_log import log as logging

from tether.db.compute import instance as db_instances

CONF = cfg.CONF
LOG = logging.getLogger(__name__)

# What Nova does with manager_interval 0.
DEFAULT_INTERVAL = 60


def interval():
    """Seconds between two runs; None: the manager does not run."""
    configured = CONF.image_cache.manager_interval
    if configured < 0:
        return None
    return configured or DEFAULT_INTERVAL


def images_in_use(context, host_name):
    """The images of the servers of ``host_name`` (any state but
    deleted: a server being built or in error may still have its root
    disk)."""
    return {instance.image_ref
            for instance in db_instances.get_by_host(context, host_name)
            if instance.image_ref}


def manage(context, host):
    """One run for the compute host ``host`` (the manager); the IDs of the
    images removed."""
    conf = CONF.image_cache
    removed = host.driver.manage_image_cache(
        images_in_use(context, host.host),
        remove_unused=conf.remove_unused_base_images,
        min_age_seconds=conf.remove_unused_original_minimum_age_seconds)
    if removed:
        LOG.info('Image cache manager of %s removed %d unused images: %s',
                 host.host, len(removed), ', '.join(removed))
    return removed
