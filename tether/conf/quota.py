"""Configuration (oslo.config): the [DEFAULT] options of volume quotas,
reservations and the timeouts of volume operations."""

from oslo_config import cfg

quota_opts = [
    cfg.IntOpt('quota_volumes', default=10,
               help='Default number of volumes per project (-1: unlimited).'),
    cfg.IntOpt('quota_gigabytes', default=1000,
               help='Default total GiB of volumes per project '
                    '(-1: unlimited).'),
    cfg.IntOpt('quota_per_volume_gigabytes', default=-1,
               help='Default largest volume in GiB (-1: unlimited).'),
    cfg.IntOpt('quota_snapshots', default=10,
               help='Default number of volume snapshots per project '
                    '(-1: unlimited).'),
    cfg.IntOpt('quota_backups', default=10,
               help='Default number of volume backups per project '
                    '(-1: unlimited).'),
    cfg.IntOpt('quota_backup_gigabytes', default=1000,
               help='Default total GiB of volume backups per project '
                    '(-1: unlimited).'),
    cfg.IntOpt('quota_groups', default=10,
               help='Default number of volume groups per project '
                    '(-1: unlimited).'),
    cfg.IntOpt('reservation_expire', default=86400, min=1,
               help='Seconds until an uncommitted quota reservation expires.'),
    cfg.IntOpt('reservation_clean_interval', default=600, min=1,
               help='Seconds between sweeps that roll back expired '
                    'reservations.'),
    cfg.IntOpt('volume_operation_timeout', default=300, min=0,
               help='Seconds a volume of this backend may stay creating '
                    'or deleting, unchanged and not being worked on by '
                    'tether-volume, before tether-volume creates or deletes '
                    'it again: the API that claimed it stopped before its '
                    'message was sent, or the message was lost. Both '
                    'operations may be repeated. 0 turns this off (a '
                    'restart of tether-volume still takes them up).'),
    cfg.IntOpt('extend_completion_timeout', default=300, min=1,
               help='Seconds a volume may stay extending (an attached '
                    'volume waits for its compute host to grow it and '
                    'answer with os-extend_volume_completion) before '
                    'tether-volume settles the extend from the size of '
                    'the volume on disk: committed if the storage has the '
                    'new size, else rolled back to error_extending. The '
                    'quota reservations of an extend never expire while '
                    'it waits.'),
    cfg.IntOpt('assisted_snapshot_create_timeout', default=600, min=1,
               help='Seconds tether-volume waits for the compute host of '
                    'an attached volume to take a snapshot (to switch the '
                    'guest to a new overlay and answer with '
                    'os-update_snapshot_status) before the snapshot goes '
                    'to error (Cinder\'s remotefs drivers wait 600).'),
    cfg.IntOpt('assisted_snapshot_delete_timeout', default=7200, min=1,
               help='Seconds tether-volume waits for the compute host of '
                    'an attached volume to merge the files of a snapshot '
                    'being deleted (a block commit or pull, which copies '
                    'data) before the snapshot goes to error_deleting '
                    '(Cinder\'s remotefs drivers wait 7200).'),
]
