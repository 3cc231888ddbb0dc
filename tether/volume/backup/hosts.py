"""Which tether-backup takes a backup's work: one that is enabled and up
(in the zone asked for), the backup's own when it is (its repository
may be a directory only it mounts), else any of them at random, as
Cinder's backup API chooses."""

import random

from oslo_config import cfg

from tether.db.volume import service as db_services
from tether.objects import fields
from tether.volume import backup_exception as exception

CONF = cfg.CONF
BINARY = fields.ServiceBinary.BACKUP


def available(context, zone=None):
    """The tether-backup services that may take work (in ``zone``)."""
    return [s for s in db_services.get_all(context, binary=BINARY)
            if not s.disabled and s.is_up(CONF.service_down_time) and
            (zone is None or
             (s.availability_zone or CONF.storage_availability_zone) ==
             zone)]


def choose(context, what, zone=None, prefer=None):
    """(host, zone) of the tether-backup to send ``what`` to, ``prefer``
    (a host) if it is up; NoBackupService if none is."""
    services = available(context, zone)
    if not services:
        raise exception.NoBackupService(
            where=' in availability zone %s' % zone if zone else '',
            what=what)
    chosen = [s for s in services if s.host == prefer] or \
        [random.choice(services)]
    return chosen[0].host, (chosen[0].availability_zone or
                            CONF.storage_availability_zone)
