"""Volume services as JSON, per microversion."""

from tether.api import microversion
from tether.api.volume import versions
from tether.objects import fields


# The name each service has on the wire: Cinder's, which its clients
# and Tempest look for (``openstack volume service list``, ``binary=
# cinder-volume`` filters), for the services tether records as
# tether-volume and tether-backup.
WIRE_NAMES = {fields.ServiceBinary.VOLUME: 'cinder-volume',
              fields.ServiceBinary.BACKUP: 'cinder-backup'}


def stored_name(wire_name):
    """The recorded binary a ``binary`` filter names: Cinder's name of a
    tether service, or the recorded name itself."""
    for stored, wire in WIRE_NAMES.items():
        if wire_name == wire:
            return stored
    return wire_name


def service(req, svc):
    d = {
        'binary': WIRE_NAMES.get(svc.binary, svc.binary),
        'host': svc.host,
        'zone': svc.zone,
        'status': 'disabled' if svc.disabled else 'enabled',
        'state': 'up' if svc.is_up else 'down',
        'updated_at': svc.updated_at,
        'disabled_reason': svc.disabled_reason,
    }
    if svc.binary == fields.ServiceBinary.VOLUME:
        # No replication or failover in tether.
        d.update({'replication_status': 'disabled',
                  'active_backend_id': None, 'frozen': svc.frozen})
        if microversion.at_least(req, versions.BACKEND_STATE):
            d['backend_state'] = svc.backend_state
    if microversion.at_least(req, versions.SERVICE_CLUSTER):
        d['cluster'] = None
    return d
