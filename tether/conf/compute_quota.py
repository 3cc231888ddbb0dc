"""Configuration (oslo.config): the [quota] options of the compute API,
Nova's names and defaults of the limits it enforces."""

from oslo_config import cfg

quota_group = cfg.OptGroup(
    'quota', title='Compute quotas',
    help='The default limits of the compute API (-1: unlimited).')

quota_opts = [
    cfg.IntOpt('key_pairs', default=100, min=-1,
               help='Key pairs per user (/os-keypairs): a create beyond '
                    'it is refused with 403.'),
    cfg.IntOpt('metadata_items', default=128, min=-1,
               help='Metadata items per server: a server create or a '
                    'metadata change that would pass it is refused with '
                    '403.'),
]
