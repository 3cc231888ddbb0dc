"""Configuration (oslo.config): the [quota] options of the compute API,
Nova's names and defaults of its limits: the default of every project
unless the ``default`` quota class or the project has its own."""

from oslo_config import cfg

quota_group = cfg.OptGroup(
    'quota', title='Compute quotas',
    help='The default limits of the compute API (-1: unlimited).')

quota_opts = [
    cfg.IntOpt('instances', default=10, min=-1,
               help='Servers per project: a server create beyond it is '
                    'refused with 403. A project\'s own limit, or the '
                    'default quota class\'s (/os-quota-sets, '
                    '/os-quota-class-sets/default), comes first.'),
    cfg.IntOpt('cores', default=20, min=-1,
               help='vCPUs of the servers of a project (their flavors\' '
                    'vcpus): a server create beyond it is refused with '
                    '403.'),
    cfg.IntOpt('ram', default=50 * 1024, min=-1,
               help='MiB of memory of the servers of a project (their '
                    'flavors\' ram): a server create beyond it is refused '
                    'with 403.'),
    cfg.IntOpt('key_pairs', default=100, min=-1,
               help='Key pairs per user (/os-keypairs): a create beyond '
                    'it is refused with 403.'),
    cfg.IntOpt('server_groups', default=10, min=-1,
               help='Server groups per project (/os-server-groups): a '
                    'create beyond it is refused with 403.'),
    cfg.IntOpt('server_group_members', default=10, min=-1,
               help='Servers per server group: a server create that '
                    'would add one more to a full group is refused with '
                    '403.'),
    cfg.IntOpt('metadata_items', default=128, min=-1,
               help='Metadata items per server: a server create or a '
                    'metadata change that would pass it is refused with '
                    '403.'),
    cfg.IntOpt('injected_files', default=5, min=-1,
               help='Personality files per server create or rebuild '
                    '(microversions 2.1 to 2.56): more is refused with '
                    '403. tether has no config drive or metadata service, '
                    'so the files are checked, never written into a '
                    'guest.'),
    cfg.IntOpt('injected_file_content_bytes', default=10240, min=-1,
               help='Bytes of one personality file\'s contents (decoded): '
                    'more is refused with 403.'),
    cfg.IntOpt('injected_file_path_length', default=255, min=-1,
               help='Characters of one personality file\'s path: more is '
                    'refused with 403.'),
]
