"""tether-backup: the service that makes, restores and deletes volume
backups (Cinder's cinder-backup), with its own RPC topic and manager."""
