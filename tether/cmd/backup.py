"""tether-backup: the backup service of this host (Cinder's
cinder-backup)."""

import sys

from oslo_config import cfg

from tether.cmd import common
from tether.objects import volume as volume_objects
from tether import rpc
from tether.volume.backup import service

CONF = cfg.CONF


def main(argv=None):
    common.parse_args(sys.argv[1:] if argv is None else argv,
                      'The tether backup service')
    volume_objects.register_all()
    rpc.init(CONF)
    backup_service = service.BackupService()
    backup_service.start()
    common.wait_for_signal()
    backup_service.stop()
    rpc.cleanup()
