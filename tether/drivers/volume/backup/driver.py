"""The interface between tether-backup and a backup repository.

A driver gets plain descriptions of the backups it works on (BackupRef)
and file objects of a volume's raw data; it knows nothing of the
database, the objects' persistence or the API. What it must remember of
a backup (where it is: its container and the prefix of its files) it
returns, and tether-backup records it before any data is written.
"""

import dataclasses


@dataclasses.dataclass(frozen=True)
class BackupRef:
    """One backup as a driver sees it."""
    id: str
    volume_id: str
    container: str | None = None
    # The prefix of its objects' names (Cinder's service_metadata).
    prefix: str | None = None
    parent_id: str | None = None
    name: str | None = None
    description: str | None = None
    # As text, written in its metadata file.
    created_at: str | None = None


class BackupDriver:
    """What tether-backup asks of a backup repository."""

    # The name recorded as each backup's ``service`` and in exported
    # records: Cinder's name of the same kind of driver (Cinder's clients
    # and Tempest check that it names one of cinder.backup.drivers).
    service_name = None

    def check_for_setup_error(self):
        """Raise if the repository cannot be used."""

    def prepare(self, ref):
        """Make room for the backup ``ref`` (its container, if None the
        driver's default); return ``(container, prefix)``, which the
        caller records before :meth:`backup` writes anything."""
        raise NotImplementedError()

    def backup(self, ref, source, parent=None, volume_meta=None,
               keep_going=None):
        """Store the raw data read from the file object ``source`` as
        ``ref`` (prepared); with ``parent`` (a stored backup of the same
        volume), only what changed since it. ``volume_meta``: text kept
        with the data and given back by :meth:`restore`. ``keep_going()``
        is called between pieces and raises to stop. Returns the number
        of objects written. Run again for the same ref, it replaces what
        the last run left."""
        raise NotImplementedError()

    def restore(self, chain, target, keep_going=None):
        """Write the data of the backups ``chain`` (a full backup first,
        then each incremental one on top of the one before) into the
        file object ``target`` (raw, at least as large); return the
        ``volume_meta`` of the last one."""
        raise NotImplementedError()

    def delete(self, ref):
        """Remove what is stored of ``ref``; succeed if nothing is."""
        raise NotImplementedError()

    def verify(self, ref):
        """Raise BackupDriverError unless ``ref`` is stored whole (an
        imported record names it)."""
        raise NotImplementedError()
