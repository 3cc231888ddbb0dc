"""Configuration (oslo.config): the [upgrade_levels] group, the RPC
versions pinned for rolling upgrades."""

from oslo_config import cfg

# Rolling upgrades: the RPC version the clients of each manager send (as
# Nova's and Cinder's [upgrade_levels]).
upgrade_levels_group = cfg.OptGroup(
    'upgrade_levels', title='RPC versions pinned for rolling upgrades')

_UPGRADE_LEVEL = r'^(auto|[0-9]+\.[0-9]+)$'
_UPGRADE_LEVEL_HELP = (
    'RPC version cap of %(binary)s: the newest RPC API version of '
    '%(binary)s that the %(api)s sends, each object at the version a '
    '%(binary)s of that RPC version reads. Unset: the newest this code '
    'knows. During a rolling upgrade, while some %(binary)s services run '
    'an older release than the %(api)s, set "auto": the RPC version of '
    'the oldest %(binary)s in the services table, read once per API '
    'process (restart or reload the API when the last one is upgraded); '
    'or set that version, "X.Y". "tether-manage status upgrade check" '
    'shows what the setting pins to.')

upgrade_levels_opts = [
    cfg.StrOpt('volume', regex=_UPGRADE_LEVEL,
               help=_UPGRADE_LEVEL_HELP % {
                   'binary': 'tether-volume', 'api': 'volume API'}),
    cfg.StrOpt('backup', regex=_UPGRADE_LEVEL,
               help=_UPGRADE_LEVEL_HELP % {
                   'binary': 'tether-backup',
                   'api': 'volume API (and tether-volume)'}),
    cfg.StrOpt('compute', regex=_UPGRADE_LEVEL,
               help=_UPGRADE_LEVEL_HELP % {
                   'binary': 'tether-compute', 'api': 'compute API'}),
]
