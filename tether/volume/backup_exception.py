"""Exceptions of volume backups (the API, tether-backup and its
drivers)."""

from tether import exception


class BackupNotFound(exception.NotFound):
    msg_fmt = 'Backup %(backup_id)s could not be found.'
    error_code = 'volume.backup.not_found'


class BackupMarkerNotFound(exception.NotFound):
    msg_fmt = 'Marker %(marker)s could not be found among the backups.'
    error_code = 'volume.backup.marker_not_found'


class InvalidBackup(exception.Invalid):
    msg_fmt = 'Invalid backup: %(reason)s'
    error_code = 'volume.backup.invalid'


class InvalidBackupStatus(InvalidBackup):
    msg_fmt = ('Invalid backup: backup %(backup_id)s is %(status)s; this '
               'needs %(expected)s.')
    error_code = 'volume.backup.invalid_status'


class BackupHasDependents(InvalidBackup):
    """Cinder's 400: an incremental backup stands on this one."""
    msg_fmt = ('Invalid backup: incremental backups exist for backup '
               '%(backup_id)s (%(count)d); delete them first.')
    error_code = 'volume.backup.has_dependents'


class NoBackupService(exception.ServiceUnavailable):
    """Cinder's 503 (ServiceNotFound) of a backup that no cinder-backup
    (tether-backup) could take."""
    msg_fmt = ('No backup service (tether-backup, cinder-backup in '
               'os-services) is up%(where)s; %(what)s needs one.')
    error_code = 'volume.backup.no_service'


class InvalidBackupRecord(exception.Invalid):
    """An import whose backup_url is not a record tether can read."""
    msg_fmt = 'Invalid backup record: %(reason)s'
    error_code = 'volume.backup.invalid_record'


class BackupDriverError(exception.TetherException):
    """The backup driver failed (the repository, the volume's data): the
    backup or the restore ends in error, its fail_reason says why."""
    msg_fmt = 'Backup driver error: %(reason)s'
    error_code = 'volume.backup.driver_error'


class BackupInterrupted(exception.TetherException):
    """Work on a backup stopped because its status changed (a force
    delete, a reset) or tether-backup stops: what was done is undone or
    left for the next start."""
    msg_fmt = 'Work on backup %(backup_id)s stopped: %(reason)s'
    error_code = 'volume.backup.interrupted'
