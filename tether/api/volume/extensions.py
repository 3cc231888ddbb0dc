"""The Cinder API extensions tether serves whole, as ``GET /extensions``
lists them: Cinder's names, aliases, descriptions and dates.

Only an extension whose behaviour tether has in full is here: not
os-services (no failover, get-log or set-log), os-hosts (no update),
os-admin-actions (no migration actions) nor os-volume-actions (no
os-unmanage), of which tether serves the rest.
"""

EXTENSIONS = (
    ('AvailabilityZones', 'os-availability-zone',
     'Describe Availability Zones.', '2013-06-27T00:00:00+00:00'),
    ('Backups', 'backups', 'Backups support.', '2012-12-12T00:00:00+00:00'),
    ('Capabilities', 'capabilities', 'Capabilities support.',
     '2015-08-31T00:00:00+00:00'),
    ('ExtendedServices', 'os-extended-services',
     'Extended services support.', '2014-01-10T00:00:00-00:00'),
    ('Qos_specs_manage', 'qos-specs', 'QoS specs support.',
     '2013-08-02T00:00:00+00:00'),
    ('QuotaClasses', 'os-quota-class-sets',
     'Quota classes management support.', '2012-03-12T00:00:00+00:00'),
    ('Quotas', 'os-quota-sets', 'Quota management support.',
     '2011-08-08T00:00:00+00:00'),
    ('Scheduler_stats', 'scheduler-stats', 'Scheduler stats support.',
     '2014-09-07T00:00:00+00:00'),
    ('TypesExtraSpecs', 'os-types-extra-specs', 'Type extra specs support.',
     '2011-08-24T00:00:00+00:00'),
    ('TypesManage', 'os-types-manage', 'Types manage support.',
     '2011-08-24T00:00:00+00:00'),
    ('UsedLimits', 'os-used-limits',
     'Provide data on limited resources that are being used.',
     '2013-10-03T00:00:00+00:00'),
    ('VolumeImageMetadata', 'os-vol-image-meta',
     'Show image metadata associated with the volume.',
     '2012-12-07T00:00:00+00:00'),
    ('VolumeHostAttribute', 'os-vol-host-attr',
     'Expose host as an attribute of a volume.',
     '2011-11-03T00:00:00+00:00'),
    # tether migrates no volumes: migstat and name_id are always null.
    ('VolumeMigStatusAttribute', 'os-vol-mig-status-attr',
     'Expose migration_status as an attribute of a volume.',
     '2013-08-08T00:00:00+00:00'),
    ('VolumeTenantAttribute', 'os-vol-tenant-attr',
     'Expose the internal project_id as an attribute of a volume.',
     '2011-11-03T00:00:00+00:00'),
    ('VolumeTransfer', 'os-volume-transfer',
     'Volume transfer management support.', '2013-05-29T00:00:00+00:00'),
    ('VolumeTypeAccess', 'os-volume-type-access',
     'Volume type access support.', '2014-06-26T00:00:00+00:00'),
)


def aliases():
    return [alias for _name, alias, _description, _updated in EXTENSIONS]
