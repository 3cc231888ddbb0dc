"""The Nova API extensions tether serves whole, as ``GET /extensions``
lists them: Nova's names, aliases and descriptions (its dates are all
one day, when v2.1 froze the list).

Only an extension whose behaviour tether has in full is here: not
OS-DCF (no AUTO partitioning), os-personality (files checked, never
written), os-admin-actions, os-multiple-create, os-server-list-multi-
status, os-config-drive, os-create-backup, the network, cell, console
and migration extensions, nor os-quota-sets and os-used-limits (not
served by this tree).
"""

UPDATED = '2014-12-03T00:00:00Z'
NAMESPACE = 'http://docs.openstack.org/compute/ext/fake_xml'

# (alias, name, description), sorted by alias as Nova lists them.
EXTENSIONS = (
    ('OS-EXT-AZ', 'ExtendedAvailabilityZone',
     'Extended Availability Zone support.'),
    ('OS-EXT-SRV-ATTR', 'ExtendedServerAttributes',
     'Extended Server Attributes support.'),
    ('OS-EXT-STS', 'ExtendedStatus', 'Extended Status support.'),
    ('OS-FLV-DISABLED', 'FlavorDisabled',
     'Support to show the disabled status of a flavor.'),
    ('OS-FLV-EXT-DATA', 'FlavorExtraData',
     'Provide additional data for flavors.'),
    ('OS-SCH-HNT', 'SchedulerHints',
     'Pass arbitrary key/value pairs to the scheduler.'),
    ('OS-SRV-USG', 'ServerUsage',
     'Adds launched_at and terminated_at on Servers.'),
    ('os-access-ips', 'AccessIPs', 'Access IPs support.'),
    ('os-aggregates', 'Aggregates', 'Admin-only aggregate administration.'),
    ('os-assisted-volume-snapshots', 'AssistedVolumeSnapshots',
     'Assisted volume snapshots.'),
    ('os-availability-zone', 'AvailabilityZone',
     '1. Add availability_zone to the Create Server API.\n'
     '       2. Add availability zones describing.\n    '),
    ('os-block-device-mapping-v2-boot', 'BlockDeviceMappingV2Boot',
     'Allow boot with the new BDM data format.'),
    ('os-console-output', 'ConsoleOutput',
     'Console log output support, with tailing ability.'),
    ('os-extended-hypervisors', 'ExtendedHypervisors',
     'Extended hypervisors support.'),
    ('os-extended-services', 'ExtendedServices',
     'Extended services support.'),
    ('os-extended-services-delete', 'ExtendedServicesDelete',
     'Extended services deletion support.'),
    ('os-extended-status', 'ExtendedStatus', 'Extended Status support.'),
    ('os-extended-volumes', 'ExtendedVolumes', 'Extended Volumes support.'),
    ('os-flavor-access', 'FlavorAccess', 'Flavor access support.'),
    ('os-flavor-extra-specs', 'FlavorExtraSpecs',
     'Flavors extra specs support.'),
    ('os-flavor-manage', 'FlavorManage',
     'Flavor create/delete API support.'),
    ('os-flavor-rxtx', 'FlavorRxtx',
     'Support to show the rxtx status of a flavor.'),
    ('os-flavor-swap', 'FlavorSwap',
     'Support to show the swap status of a flavor.'),
    ('os-hypervisor-status', 'HypervisorStatus', 'Show hypervisor status.'),
    ('os-hypervisors', 'Hypervisors',
     'Admin-only hypervisor administration.'),
    ('os-instance-actions', 'InstanceActions',
     'View a log of actions and events taken on an instance.'),
    ('os-keypairs', 'Keypairs', 'Keypair Support.'),
    ('os-lock-server', 'LockServer', 'Enable lock/unlock server actions.'),
    ('os-pause-server', 'PauseServer',
     'Enable pause/unpause server actions.'),
    ('os-rescue', 'Rescue', 'Instance rescue mode.'),
    ('os-server-external-events', 'ServerExternalEvents',
     'Server External Event Triggers.'),
    ('os-server-group-quotas', 'ServerGroupQuotas',
     'Adds quota support to server groups.'),
    ('os-server-groups', 'ServerGroups', 'Server group support.'),
    ('os-server-password', 'ServerPassword', 'Server password support.'),
    ('os-server-start-stop', 'ServerStartStop',
     'Start/Stop instance compute API support.'),
    ('os-services', 'Services', 'Services support.'),
    ('os-simple-tenant-usage', 'SimpleTenantUsage',
     'Simple tenant usage extension.'),
    ('os-suspend-server', 'SuspendServer',
     'Enable suspend/resume server actions.'),
    ('os-user-data', 'UserData', 'Add user_data to the Create Server API.'),
    ('os-volume-attachment-update', 'VolumeAttachmentUpdate',
     'Support for updating a volume attachment.'),
    ('os-volumes', 'Volumes', 'Volumes support.'),
)


def as_json(alias, name, description):
    return {'alias': alias, 'name': name, 'description': description,
            'links': [], 'namespace': NAMESPACE, 'updated': UPDATED}


def find(alias):
    """The extension of ``alias``, or None."""
    for entry in EXTENSIONS:
        if entry[0] == alias:
            return as_json(*entry)
    return None
