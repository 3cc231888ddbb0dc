"""Configuration options (oslo.config) for every tether service."""

from oslo_config import cfg
from oslo_db import options as db_options
from oslo_log import log as logging
from oslo_policy import opts as policy_opts

from tether import clients
from tether.conf.aio import aio_opts  # noqa: F401
from tether.conf.api import api_opts
from tether.conf.backend import backend_opts
from tether.conf.backend import register_backend_opts  # noqa: F401
from tether.conf.base import default_opts
from tether.conf.compute import compute_opts
from tether.conf.database import compute_database_group
from tether.conf.image_cache import image_cache_group
from tether.conf.image_cache import image_cache_opts
from tether.conf.libvirt import libvirt_group
from tether.conf.libvirt import libvirt_opts
from tether.conf.peers import compute_client_opts
from tether.conf.peers import compute_group
from tether.conf.peers import image_client_opts
from tether.conf.peers import image_group
from tether.conf.peers import volume_client_opts
from tether.conf.peers import volume_group
from tether.conf.quota import quota_opts
from tether.conf.share import share_client_opts
from tether.conf.share import share_group
from tether.conf.upgrade_levels import upgrade_levels_group
from tether.conf.upgrade_levels import upgrade_levels_opts

CONF = cfg.CONF

CONF.register_opts(default_opts)
CONF.register_opts(api_opts)
CONF.register_opts(quota_opts)
CONF.register_opts(compute_opts)
CONF.register_group(compute_database_group)
CONF.register_opts(db_options.database_opts, group=compute_database_group)
for _group, _opts in ((volume_group, volume_client_opts),
                      (compute_group, compute_client_opts),
                      (image_group, image_client_opts),
                      (share_group, share_client_opts)):
    CONF.register_group(_group)
    CONF.register_opts(_opts, group=_group)
    clients.register_keystoneauth_opts(CONF, _group.name)
CONF.register_group(libvirt_group)
CONF.register_opts(libvirt_opts, group=libvirt_group)
CONF.register_group(image_cache_group)
CONF.register_opts(image_cache_opts, group=image_cache_group)
CONF.register_group(upgrade_levels_group)
CONF.register_opts(upgrade_levels_opts, group=upgrade_levels_group)
db_options.set_defaults(CONF, connection='sqlite:///$state_path/tether.sqlite')
CONF.set_default('connection', 'sqlite:///$state_path/compute.sqlite',
                 group=compute_database_group)
logging.register_options(CONF)
# Logs go to stderr unless a log file is set: stdout carries what a command
# answers (tether-manage) or announces (tether-aio's ready line).
CONF.set_default('use_stderr', True)


def set_lib_defaults():
    policy_opts.set_defaults(CONF, policy_file='policy.yaml')


def list_opts():
    """Options for oslo-config-generator (the ``tether`` namespace).

    The backend options are listed in a group literally named ``backend``
    so that the sample shows them once; a real deployment names each group
    after its backend, as listed in ``[DEFAULT]enabled_backends`` (for
    example ``[nfs-1]``).
    """
    return [
        ('DEFAULT', default_opts + api_opts + quota_opts + compute_opts),
        ('backend', backend_opts),
        (libvirt_group, libvirt_opts),
        (image_cache_group, image_cache_opts),
        (compute_database_group, db_options.database_opts),
        (volume_group, volume_client_opts + clients.keystoneauth_opts()),
        (compute_group,
         compute_client_opts + clients.keystoneauth_opts()),
        (image_group, image_client_opts + clients.keystoneauth_opts()),
        (share_group, share_client_opts + clients.keystoneauth_opts()),
        (upgrade_levels_group, upgrade_levels_opts),
    ]
