"""tether-compute: the compute manager of this hypervisor host."""

import sys

from oslo_config import cfg

from tether.cmd import common
from tether.compute import service
from tether.objects import compute as compute_objects
from tether import rpc

CONF = cfg.CONF


def main(argv=None):
    common.parse_args(sys.argv[1:] if argv is None else argv,
                      'The tether compute manager')
    compute_objects.register_all()
    rpc.init(CONF)
    compute_service = service.ComputeService()
    compute_service.start()
    common.wait_for_signal()
    compute_service.stop()
    rpc.cleanup()
