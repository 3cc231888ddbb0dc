"""Backup drivers of tether-backup: where backups of volumes are kept
(the posix driver: files in directories), and how tether-backup reaches
the data of a volume (connector)."""
