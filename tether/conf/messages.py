"""Configuration (oslo.config): the [DEFAULT] options of user messages."""

from oslo_config import cfg

message_opts = [
    cfg.IntOpt('message_ttl', default=2592000, min=1,
               help='Seconds a user message is kept (its '
                    'guaranteed_until); then it is deleted.'),
    cfg.IntOpt('message_reap_interval', default=86400, min=1,
               help='Seconds between the sweeps of tether-volume that '
                    'delete expired user messages.'),
]
