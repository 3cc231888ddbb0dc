"""Configuration (oslo.config): the [image_cache] group of the compute
service."""

from oslo_config import cfg

# The cache of images on a compute host (Nova's [image_cache]).
image_cache_group = cfg.OptGroup(
    'image_cache', title='The images a compute host keeps for the local '
                         'root disks of its servers')

image_cache_opts = [
    cfg.IntOpt('manager_interval', default=2400, min=-1,
               help='Seconds between two runs of the image cache manager '
                    'of tether-compute, which marks the cached images the '
                    'servers of the host use and removes those no server '
                    'has used for remove_unused_original_minimum_age_'
                    'seconds. 0: every 60 seconds; -1: never.'),
    cfg.StrOpt('subdirectory_name', default='_base',
               help='Directory under [DEFAULT] instances_path that holds '
                    'the cached images (one raw file per image, named by '
                    'its ID), on which the root disks of the servers '
                    'booted from images are qcow2 overlays.'),
    cfg.BoolOpt('remove_unused_base_images', default=True,
                help='Whether the image cache manager removes cached '
                     'images that no server of the host uses.'),
    cfg.IntOpt('remove_unused_original_minimum_age_seconds',
               default=24 * 3600, min=0,
               help='An unused cached image is removed only once no '
                    'server of the host has used it for this many '
                    'seconds (a build that uses it, and each run of the '
                    'manager that finds it used, make it young again).'),
]
