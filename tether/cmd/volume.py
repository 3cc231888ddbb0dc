"""tether-volume: the volume manager of each enabled backend."""

import sys

from oslo_config import cfg

from tether.cmd import common
from tether.objects import volume as volume_objects
from tether import rpc
from tether.volume import service

CONF = cfg.CONF


def main(argv=None):
    common.parse_args(sys.argv[1:] if argv is None else argv,
                      'The tether volume manager')
    volume_objects.register_all()
    rpc.init(CONF)
    volume_service = service.VolumeService()
    volume_service.start()
    common.wait_for_signal()
    volume_service.stop()
    rpc.cleanup()
