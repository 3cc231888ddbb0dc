"""Configuration options (oslo.config) for every tether service: CONF with
every group registered, and list_opts for the sample; the options of each
group (or job of [DEFAULT]) are in a module of their own beside this one."""

from oslo_config import cfg
from oslo_db import options as db_options
from oslo_log import log as logging
from oslo_policy import opts as policy_opts

from tether import clients
from tether.conf import api
from tether.conf import backend
from tether.conf import backup
from tether.conf import base
from tether.conf import compute
from tether.conf import compute_quota
from tether.conf import database
from tether.conf import image_cache
from tether.conf import libvirt
from tether.conf import messages
from tether.conf import peers
from tether.conf import quota
from tether.conf import share
from tether.conf import upgrade_levels

CONF = cfg.CONF

CONF.register_opts(base.default_opts)
CONF.register_opts(api.api_opts)
CONF.register_group(api.api_group)
CONF.register_opts(api.api_group_opts, group=api.api_group)
CONF.register_opts(quota.quota_opts)
CONF.register_opts(messages.message_opts)
CONF.register_opts(compute.compute_opts)
CONF.register_group(database.compute_database_group)
CONF.register_opts(db_options.database_opts,
                   group=database.compute_database_group)
for _group, _opts in ((peers.volume_group, peers.volume_client_opts),
                      (peers.compute_group, peers.compute_client_opts),
                      (peers.image_group, peers.image_client_opts),
                      (share.share_group, share.share_client_opts)):
    CONF.register_group(_group)
    CONF.register_opts(_opts, group=_group)
    clients.register_keystoneauth_opts(CONF, _group.name)
for _group, _opts in (
        (libvirt.libvirt_group, libvirt.libvirt_opts),
        (image_cache.image_cache_group, image_cache.image_cache_opts),
        (compute_quota.quota_group, compute_quota.quota_opts),
        (backup.backup_group, backup.backup_opts),
        (upgrade_levels.upgrade_levels_group,
         upgrade_levels.upgrade_levels_opts)):
    CONF.register_group(_group)
    CONF.register_opts(_opts, group=_group)
# Connections a process keeps open to each database (oslo.db's default is
# 5): at least as many as its threads that may each hold one at once (16
# in the built-in API server, 8 in a unit's gunicorn worker). With fewer,
# a transaction beyond the pool opens a connection of its own and closes
# it at the end: with PostgreSQL, a new server process for each. A pool
# grows to what its process uses at once, never beyond this, and SQLite
# has a pool of its own (tether.db.session).
DB_POOL_SIZE = 16


def _set_db_defaults():
    db_options.set_defaults(
        CONF, connection='sqlite:///$state_path/tether.sqlite',
        max_pool_size=DB_POOL_SIZE)
    CONF.set_default('max_pool_size', DB_POOL_SIZE,
                     group=database.compute_database_group)
    CONF.set_default('connection', 'sqlite:///$state_path/compute.sqlite',
                     group=database.compute_database_group)


_set_db_defaults()
logging.register_options(CONF)
# Logs go to stderr unless a log file is set: stdout carries what a command
# answers (tether-manage) or announces (tether-aio's ready line).
CONF.set_default('use_stderr', True)


def set_lib_defaults():
    policy_opts.set_defaults(CONF, policy_file='policy.yaml')
    # What the generator reads is the option's own default (CONF's
    # set_default above holds it apart), here for both database groups.
    cfg.set_defaults(db_options.database_opts, max_pool_size=DB_POOL_SIZE)


def list_opts():
    """Options for oslo-config-generator (the ``tether`` namespace).

    The backend options are listed in a group literally named ``backend``
    so that the sample shows them once; a real deployment names each group
    after its backend, as listed in ``[DEFAULT]enabled_backends`` (for
    example ``[nfs-1]``).
    """
    return [
        ('DEFAULT', base.default_opts + api.api_opts + quota.quota_opts +
         messages.message_opts +
         compute.compute_opts),
        (api.api_group, api.api_group_opts),
        ('backend', backend.backend_opts),
        (backup.backup_group, backup.backup_opts),
        (libvirt.libvirt_group, libvirt.libvirt_opts),
        (image_cache.image_cache_group, image_cache.image_cache_opts),
        (compute_quota.quota_group, compute_quota.quota_opts),
        (database.compute_database_group, db_options.database_opts),
        (peers.volume_group,
         peers.volume_client_opts + clients.keystoneauth_opts()),
        (peers.compute_group,
         peers.compute_client_opts + clients.keystoneauth_opts()),
        (peers.image_group,
         peers.image_client_opts + clients.keystoneauth_opts()),
        (share.share_group,
         share.share_client_opts + clients.keystoneauth_opts()),
        (upgrade_levels.upgrade_levels_group,
         upgrade_levels.upgrade_levels_opts),
    ]
