"""Configuration (oslo.config): the [libvirt] group of the libvirt compute
driver."""

from oslo_config import cfg

# Options of the libvirt compute driver (tether-compute).
libvirt_group = cfg.OptGroup('libvirt', title='The libvirt compute driver')

libvirt_opts = [
    cfg.StrOpt('virt_type', default='qemu', choices=[
                   ('qemu', 'QEMU with TCG (software emulation)'),
                   ('kvm', 'QEMU with KVM acceleration')],
               help='Domain type of the guests libvirt runs.'),
    cfg.StrOpt('connection_uri', default='qemu:///system',
               help='libvirt connection URI of the hypervisor.'),
    cfg.IntOpt('file_backed_memory', default=0, min=0,
               help='MiB of guest memory that may be backed by files in '
                    'libvirt\'s memory_backing_dir (qemu.conf). 0 turns '
                    'file-backed memory off; any other value makes guests '
                    'use shared file-backed memory, which virtio-fs '
                    'needs, and reports the COMPUTE_MEM_BACKING_FILE '
                    'trait.'),
    cfg.StrOpt('nfs_mount_point_base', default='$state_path/mnt',
               help='Directory under which the compute host mounts the NFS '
                    'exports of volumes (an export that is an absolute '
                    'path is used as an already-mounted share).'),
    cfg.StrOpt('nfs_mount_options',
               help='Options passed to "mount -t nfs -o" when the compute '
                    'host mounts an export whose connection info names '
                    'none.'),
    cfg.StrOpt('share_mount_point_base', default='$state_path/mnt-shares',
               help='Directory under which the compute host mounts the '
                    'Manila shares of its servers (one directory per '
                    'share ID), which guests get over virtio-fs. The '
                    'cephx keyrings of CephFS shares are kept beside them, '
                    'readable by root only.'),
    cfg.StrOpt('snapshots_directory', default='$instances_path/snapshots',
               help='Directory where the root disk of a server is copied '
                    'while it is snapshotted into an image (createImage, '
                    'createBackup), until the copy is uploaded (Nova\'s '
                    'option and default).'),
    cfg.IntOpt('wait_soft_reboot_seconds', default=120, min=0,
               help='Seconds a soft reboot gives the guest to power off '
                    'when its operating system is asked to (the ACPI '
                    'power button, pressed again every 10 seconds) before '
                    'the guest is powered off at once and started again, '
                    'as a hard reboot does (Nova\'s option and default). '
                    'A guest without an operating system never answers '
                    'and takes all of it; 0 makes every reboot hard.'),
]
