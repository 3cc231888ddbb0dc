"""Policy rules of the volume API (Cinder's names and defaults)."""

import itertools

from tether.policies.volume import attachments
from tether.policies.volume import availability_zones
from tether.policies.volume import backups
from tether.policies.volume import default_types
from tether.policies.volume import group_snapshots
from tether.policies.volume import group_types
from tether.policies.volume import groups
from tether.policies.volume import hosts
from tether.policies.volume import legacy_attach
from tether.policies.volume import limits
from tether.policies.volume import messages
from tether.policies.volume import qos_specs
from tether.policies.volume import quota_class_sets
from tether.policies.volume import quota_sets
from tether.policies.volume import scheduler_stats
from tether.policies.volume import services
from tether.policies.volume import snapshots
from tether.policies.volume import transfers
from tether.policies.volume import type_access
from tether.policies.volume import type_extra_specs
from tether.policies.volume import types
from tether.policies.volume import volume_actions
from tether.policies.volume import volume_admin_actions
from tether.policies.volume import volume_flags
from tether.policies.volume import volume_revert
from tether.policies.volume import volume_metadata
from tether.policies.volume import volumes

_MODULES = [volumes, volume_actions, volume_metadata, quota_sets, limits,
            types, type_extra_specs, type_access, services, availability_zones,
            attachments, snapshots, transfers, quota_class_sets,
            backups, default_types, qos_specs, messages,
            scheduler_stats, hosts, group_types, groups,
            group_snapshots, legacy_attach, volume_admin_actions,
            volume_flags, volume_revert]


def list_rules():
    return list(itertools.chain.from_iterable(
        m.list_rules() for m in _MODULES))
