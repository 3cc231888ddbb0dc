"""Configuration (oslo.config): the options of tether-aio, which runs
every service in one process (registered by it alone)."""

from oslo_config import cfg

aio_opts = [
    cfg.StrOpt('aio_transport_url', default='kombu+memory://localhost//',
               help='Transport used by tether-aio, where every service runs '
                    'in one process.'),
]
