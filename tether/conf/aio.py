"""Configuration (oslo.config): the options of tether-aio, which runs
every service in one process (registered by it alone)."""

from oslo_config import cfg

aio_opts = [
    cfg.StrOpt('aio_transport_url',
               default='kombu+tether-memory://localhost//',
               help='Transport used by tether-aio, where every service runs '
                    'in one process: by default its in-process broker '
                    '(tether.memory_transport), on which an idle RPC '
                    'listener waits a second at a time instead of 50 ms '
                    '(oslo.messaging\'s polling of kombu+memory://).'),
]
