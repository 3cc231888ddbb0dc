"""Policy rules of the compute API (Nova's names and defaults)."""

import itertools

from tether.policies.compute import aggregates
from tether.policies.compute import assisted_volume_snapshots
from tether.policies.compute import availability_zones
from tether.policies.compute import base
from tether.policies.compute import console_output
from tether.policies.compute import extensions
from tether.policies.compute import flavor_access
from tether.policies.compute import flavor_extra_specs
from tether.policies.compute import flavors
from tether.policies.compute import hypervisors
from tether.policies.compute import images
from tether.policies.compute import instance_actions
from tether.policies.compute import keypairs
from tether.policies.compute import limits
from tether.policies.compute import lock_server
from tether.policies.compute import pause_server
from tether.policies.compute import quota_class_sets
from tether.policies.compute import quota_sets
from tether.policies.compute import rescue
from tether.policies.compute import server_actions
from tether.policies.compute import server_addresses
from tether.policies.compute import server_external_events
from tether.policies.compute import server_groups
from tether.policies.compute import server_images
from tether.policies.compute import server_metadata
from tether.policies.compute import server_shares
from tether.policies.compute import servers
from tether.policies.compute import services
from tether.policies.compute import simple_tenant_usage
from tether.policies.compute import snapshots
from tether.policies.compute import suspend_server
from tether.policies.compute import volume_attachments
from tether.policies.compute import volumes

_MODULES = [base, servers, server_actions, lock_server, pause_server,
            suspend_server, rescue, console_output, server_images,
            volume_attachments, server_shares,
            server_external_events, assisted_volume_snapshots,
            instance_actions, flavors,
            flavor_extra_specs, flavor_access, services,
            hypervisors, availability_zones, keypairs, server_metadata,
            volumes, snapshots, images, server_addresses, server_groups,
            aggregates, simple_tenant_usage, extensions, limits,
            quota_sets, quota_class_sets]


def list_rules():
    return list(itertools.chain.from_iterable(
        m.list_rules() for m in _MODULES))
