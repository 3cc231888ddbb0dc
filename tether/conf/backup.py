"""Configuration (oslo.config): the [backup] group, tether-backup and its
driver (Cinder's backup options, without their ``backup_`` prefix)."""

from oslo_config import cfg

backup_group = cfg.OptGroup(
    'backup', title='Volume backups (tether-backup)')

# Cinder's posix driver tracks changes for incremental backups in blocks
# of 32 KiB; its files are 61035 of them (1.86 GiB), which it holds in
# memory whole while it compresses one. tether's default file is 64 MiB
# (a backup of 1 TiB is 16,384 files in its directory): a backup holds
# about twice that in memory, whatever the size of the volume.
SHA_BLOCK_SIZE = 32 * 1024
FILE_SIZE = 2048 * SHA_BLOCK_SIZE

backup_opts = [
    cfg.StrOpt('driver',
               default='tether.drivers.volume.backup.posix.PosixBackupDriver',
               help='Python path of the backup driver class.'),
    cfg.StrOpt('posix_path', default='$state_path/backup',
               help='The directory backups are written to (the posix '
                    'driver), a directory per backup below it. In a '
                    'deployment of more than one tether-backup, a mount '
                    'of the same NFS export or CephFS on each: any of '
                    'them may restore or delete any backup.'),
    cfg.StrOpt('container',
               help='The directory (relative to posix_path) of backups '
                    'created without a container. Unset: a directory of '
                    'their own per backup, <id[0:2]>/<id[2:4]>/<id>, as '
                    'Cinder\'s posix driver makes them.'),
    cfg.IntOpt('file_size', default=FILE_SIZE, min=SHA_BLOCK_SIZE,
               help='The largest file of a backup\'s data, in bytes '
                    '(before compression): a volume is read and written '
                    'in pieces of this size, and a backup holds about two '
                    'of them in memory. A multiple of sha_block_size.'),
    cfg.IntOpt('sha_block_size', default=SHA_BLOCK_SIZE, min=512,
               help='The size in bytes of the blocks an incremental backup '
                    'compares (by SHA-256) with the backup before it: it '
                    'stores only the blocks that changed. An incremental '
                    'backup of a backup made with another block size is '
                    'refused (make a full one).'),
    cfg.StrOpt('compression_algorithm', default='zlib',
               choices=[('zlib', 'zlib (gzip\'s deflate)'),
                        ('bz2', 'bzip2: smaller, slower'),
                        ('none', 'no compression')],
               help='How each file of a backup is compressed (a file that '
                    'would not get smaller is stored as it is).'),
    cfg.StrOpt('work_dir', default='$state_path/backup-work',
               help='Where tether-backup converts the qcow2 chain of a '
                    'volume (or of a snapshot) to raw data while it backs '
                    'it up, and writes the data of a restore into a qcow2 '
                    'volume from: room for the data of the largest volume '
                    '(the files are sparse), removed once done.'),
    cfg.StrOpt('mount_point_base', default='$state_path/backup-mnt',
               help='Where tether-backup mounts the NFS exports of the '
                    'volumes it reads and writes (a share that is a local '
                    'directory is used as it is).'),
    cfg.IntOpt('snapshot_timeout', default=600, min=1,
               help='Seconds a backup of an attached volume waits for its '
                    'temporary snapshot (taken by the compute host of the '
                    'volume\'s server) before it fails.'),
]
