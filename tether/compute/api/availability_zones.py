"""Availability zones (``/os-availability-zone``) in the API process: the
zones of the compute hosts."""

import dataclasses

from tether.compute.api import hypervisors


@dataclasses.dataclass(frozen=True)
class Zone:
    name: str
    # One of its enabled compute services is up.
    available: bool
    # Its enabled compute services.
    hosts: list


def get_all(context):
    """The zones of the compute services, the available ones first."""
    by_name = {}
    for host in hypervisors.get_compute_hosts(context):
        by_name.setdefault(host.zone, []).append(host)
    zones = []
    for name, hosts in by_name.items():
        enabled = [h for h in hosts if not h.disabled]
        zones.append(Zone(name=name,
                          available=any(h.is_up for h in enabled),
                          hosts=enabled))
    zones.sort(key=lambda z: (not z.available, z.name))
    return zones
