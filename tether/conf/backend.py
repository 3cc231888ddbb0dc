"""Configuration (oslo.config): the options of one volume backend, in a
group of its own per backend."""

from oslo_config import cfg

# Options of one volume backend. They live in the group named in
# [DEFAULT]enabled_backends (for example [nfs-1]).
backend_opts = [
    cfg.StrOpt('volume_driver', default='tether.drivers.volume.nfs.NfsDriver',
               help='Python path of the volume driver class.'),
    cfg.StrOpt('volume_backend_name',
               help='Name reported for this backend (defaults to the group '
                    'name).'),
    cfg.ListOpt('nfs_shares', default=[],
                help='Shares this backend stores volume files on. An entry '
                     '"server:/export" is an NFS export mounted under '
                     'nfs_mount_point_base; an absolute path is a directory '
                     'used as an already-mounted share.'),
    cfg.StrOpt('nfs_mount_point_base', default='$state_path/mnt',
               help='Directory under which NFS exports are mounted.'),
    cfg.StrOpt('nfs_mount_options',
               help='Options passed to "mount -t nfs -o".'),
    cfg.StrOpt('volume_format', default='raw', choices=['raw', 'qcow2'],
               help='Format of new volume files.'),
    cfg.BoolOpt('nfs_sparsed_volumes', default=True,
                help='Create raw volume files sparse.'),
    cfg.FloatOpt('max_over_subscription_ratio', default=20.0, min=1.0,
                 help='How far the provisioned size may exceed the share '
                      'capacity (thin provisioning).'),
    cfg.IntOpt('reserved_percentage', default=0, min=0, max=100,
               help='Percentage of each share kept free.'),
    cfg.IntOpt('qemu_img_cpu_limit', default=30, min=1,
               help='CPU seconds a qemu-img call may use.'),
    cfg.IntOpt('qemu_img_address_space_limit', default=1024 * 1024 * 1024,
               min=1, help='Bytes of address space a qemu-img call may use.'),
]


def register_backend_opts(conf, group):
    """Register backend options under ``group`` and return that group."""
    conf.register_opts(backend_opts, group=group)
    return conf[group]
