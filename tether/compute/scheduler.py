"""Host selection for a new server, without Placement (API process).

A host is a candidate if its tether-compute is up and enabled (and in the
requested zone); its usable room is its memory and vCPUs times the
allocation ratios, less the memory reserved for the host. The claim
itself, which counts what the host already runs, is made when the
instance is inserted (tether.db.compute.instance.create_on_host), so
concurrent boots never overcommit a host.
"""

import collections

from oslo_config import cfg

from tether.db.compute import service as db_services
from tether.objects import fields

CONF = cfg.CONF


def _usable(context, availability_zone):
    """The compute services that are up, enabled and in the zone."""
    for service in db_services.get_all(
            context, binary=fields.ServiceBinary.COMPUTE):
        if service.disabled or not service.is_up(CONF.service_down_time):
            continue
        zone = service.availability_zone or CONF.default_availability_zone
        if availability_zone and zone != availability_zone:
            continue
        yield service


class Candidate(collections.namedtuple(
        'Candidate', 'service_id host node memory_mb vcpus zone')):
    """A host that may take a server: its service record, node, usable
    capacity and availability zone."""


def candidates(context, availability_zone=None, min_service_version=0):
    """The Candidates whose tether-compute is at ``min_service_version``
    or newer (what the server needs them to know), most memory free
    first."""
    found = []
    for service in _usable(context, availability_zone):
        if (service.version or 0) < min_service_version:
            continue
        stats = service.stats
        memory_mb = int(stats.get('memory_mb', 0) *
                        CONF.ram_allocation_ratio -
                        CONF.reserved_host_memory_mb)
        vcpus = int(stats.get('vcpus', 0) * CONF.cpu_allocation_ratio)
        free = memory_mb - stats.get('memory_mb_used', 0)
        found.append((free, Candidate(
            service.id, service.host, service.hypervisor_hostname,
            memory_mb, vcpus,
            service.availability_zone or CONF.default_availability_zone)))
    found.sort(key=lambda item: -item[0])
    return [candidate for _free, candidate in found]


class GroupRule:
    """The policy of a server group a new server joins, applied to the
    candidate hosts in the transaction that places the server
    (tether.db.compute.instance.create_on_host), with the group's row
    locked and its members' hosts counted there.

    ``affinity``: the host of the members, if they have one.
    ``anti-affinity``: hosts with fewer than ``max_server_per_host``
    members (1 unless the group's rules say). The soft policies exclude
    no host: they try the hosts with the most (soft-affinity) or fewest
    (soft-anti-affinity) members first. ``excluded`` keeps the hosts the
    hard policies left out, for the fault of a server that found none.
    """

    def __init__(self, group, member_limit):
        self.group = group
        self.member_limit = member_limit
        self.excluded = []

    @property
    def max_per_host(self):
        return int(self.group.rules.get('max_server_per_host', 1))

    def order(self, candidates, members_by_host):
        policy = self.group.policy
        Policy = fields.ServerGroupPolicy
        self.excluded = []
        if policy == Policy.AFFINITY and members_by_host:
            kept = [c for c in candidates if c.host in members_by_host]
        elif policy == Policy.ANTI_AFFINITY:
            kept = [c for c in candidates
                    if members_by_host.get(c.host, 0) < self.max_per_host]
        elif policy == Policy.SOFT_AFFINITY:
            kept = sorted(candidates,
                          key=lambda c: -members_by_host.get(c.host, 0))
        elif policy == Policy.SOFT_ANTI_AFFINITY:
            kept = sorted(candidates,
                          key=lambda c: members_by_host.get(c.host, 0))
        else:
            kept = list(candidates)
        self.excluded = [c.host for c in candidates if c not in kept]
        return kept

    def why_none(self):
        """Why no host was found, if the policy left hosts out: words for
        the server's NoValidHost fault (None: the hosts were full)."""
        if not self.excluded:
            return None
        hosts = ', '.join(sorted(self.excluded))
        if self.group.policy == fields.ServerGroupPolicy.AFFINITY:
            return ('the affinity policy of server group %s keeps its '
                    'servers on the host of its members, which has no '
                    'room (hosts left out: %s)' % (self.group.uuid, hosts))
        return ('the anti-affinity policy of server group %s allows %d of '
                'its servers per host, and every host that could take it '
                'has as many (%s)' % (self.group.uuid, self.max_per_host,
                                      hosts))


def _service(context, host):
    rows = db_services.get_all(context, binary=fields.ServiceBinary.COMPUTE,
                               host=host)
    return rows[0] if rows else None


def service_version(context, host):
    """The service version of the tether-compute of ``host`` (0 if none)."""
    service = _service(context, host)
    return service.version if service else 0


def host_traits(context, host):
    """The traits the tether-compute of ``host`` reported (its hypervisor
    record), as a set."""
    service = _service(context, host)
    return set(service.traits or ()) if service else set()


def versions_below(context, min_service_version, availability_zone=None):
    """{host: service version} of the usable hosts (up, enabled, in the
    zone) older than ``min_service_version``."""
    return {service.host: service.version or 0
            for service in _usable(context, availability_zone)
            if (service.version or 0) < min_service_version}
