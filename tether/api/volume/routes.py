"""The route table of the volume API: path -> {method: handler}."""

from tether.api import actions
from tether.api.volume.handlers import attachments
from tether.api.volume.handlers import availability_zones
from tether.api.volume.handlers import backups
from tether.api.volume.handlers import default_types
from tether.api.volume.handlers import extensions
from tether.api.volume.handlers import group_snapshots
from tether.api.volume.handlers import group_types
from tether.api.volume.handlers import groups
from tether.api.volume.handlers import hosts
from tether.api.volume.handlers import legacy_attach
from tether.api.volume.handlers import limits
from tether.api.volume.handlers import messages
from tether.api.volume.handlers import qos_specs
from tether.api.volume.handlers import quota_class_sets
from tether.api.volume.handlers import quota_sets
from tether.api.volume.handlers import resource_filters
from tether.api.volume.handlers import scheduler_stats
from tether.api.volume.handlers import services
from tether.api.volume.handlers import snapshots
from tether.api.volume.handlers import transfers
from tether.api.volume.handlers import type_access
from tether.api.volume.handlers import type_extra_specs
from tether.api.volume.handlers import types
from tether.api.volume.handlers import volume_actions
from tether.api.volume.handlers import volume_admin_actions
from tether.api.volume.handlers import volume_flags
from tether.api.volume.handlers import volume_revert
from tether.api.volume.handlers import volume_image_metadata
from tether.api.volume.handlers import volume_metadata
from tether.api.volume.handlers import volumes

# Paths under /v3/{project_id}; each is also served under /v3 alone, as
# Cinder does from 3.67 (tether accepts both at every version).
RESOURCES = [
    ('/volumes', {'GET': volumes.list_volumes,
                  'POST': volumes.create_volume}),
    ('/volumes/detail', {'GET': volumes.list_volumes_detail}),
    ('/volumes/summary', {'GET': volumes.volume_summary}),
    ('/volumes/{volume_id}', {'GET': volumes.show_volume,
                              'PUT': volumes.update_volume,
                              'DELETE': volumes.delete_volume}),
    ('/volumes/{volume_id}/action', {
        'POST': actions.Dispatcher('volume', volume_actions.ACTIONS,
                                   volume_image_metadata.ACTIONS,
                                   legacy_attach.ACTIONS,
                                   volume_admin_actions.ACTIONS,
                                   volume_flags.ACTIONS,
                                   volume_revert.ACTIONS,
                                   unserved=volume_actions.find_volume)}),
    ('/volumes/{volume_id}/metadata', {
        'GET': volume_metadata.list_metadata,
        'POST': volume_metadata.create_metadata,
        'PUT': volume_metadata.replace_metadata}),
    ('/volumes/{volume_id}/metadata/{key}', {
        'GET': volume_metadata.show_metadata_item,
        'PUT': volume_metadata.update_metadata_item,
        'DELETE': volume_metadata.delete_metadata_item}),
    # {target_project_id}: the URL may already hold the caller's project_id.
    ('/os-quota-sets/{target_project_id}', {
        'GET': quota_sets.show_quota_set,
        'PUT': quota_sets.update_quota_set,
        'DELETE': quota_sets.delete_quota_set}),
    ('/os-quota-sets/{target_project_id}/defaults', {
        'GET': quota_sets.show_defaults}),
    ('/os-quota-class-sets/{class_name}', {
        'GET': quota_class_sets.show_quota_class_set,
        'PUT': quota_class_sets.update_quota_class_set}),
    ('/limits', {'GET': limits.show_limits}),
    ('/types', {'GET': types.list_types, 'POST': types.create_type}),
    # Before /types/{type_id}: the first route that matches wins.
    ('/types/default', {'GET': types.show_default_type}),
    ('/types/{type_id}', {'GET': types.show_type,
                          'PUT': types.update_type,
                          'DELETE': types.delete_type}),
    ('/types/{type_id}/action', {
        'POST': actions.Dispatcher('volume type', type_access.ACTIONS)}),
    ('/types/{type_id}/os-volume-type-access', {
        'GET': type_access.list_type_access}),
    ('/types/{type_id}/extra_specs', {
        'GET': type_extra_specs.list_extra_specs,
        'POST': type_extra_specs.create_extra_specs}),
    ('/types/{type_id}/extra_specs/{key}', {
        'GET': type_extra_specs.show_extra_spec,
        'PUT': type_extra_specs.update_extra_spec,
        'DELETE': type_extra_specs.delete_extra_spec}),
    ('/default-types', {'GET': default_types.list_default_types}),
    # {target_project_id}: the URL may already hold the caller's project_id.
    ('/default-types/{target_project_id}', {
        'GET': default_types.show_default_type,
        'PUT': default_types.set_default_type,
        'DELETE': default_types.delete_default_type}),
    ('/resource_filters', {'GET': resource_filters.list_resource_filters}),
    ('/messages', {'GET': messages.list_messages}),
    ('/messages/{message_id}', {'GET': messages.show_message,
                                'DELETE': messages.delete_message}),
    ('/qos-specs', {'GET': qos_specs.list_qos_specs,
                    'POST': qos_specs.create_qos_specs}),
    ('/qos-specs/{qos_id}', {'GET': qos_specs.show_qos_specs,
                             'PUT': qos_specs.update_qos_specs,
                             'DELETE': qos_specs.delete_qos_specs}),
    ('/qos-specs/{qos_id}/delete_keys', {
        'PUT': qos_specs.delete_qos_specs_keys}),
    ('/qos-specs/{qos_id}/associations', {
        'GET': qos_specs.list_qos_associations}),
    ('/qos-specs/{qos_id}/associate', {
        'GET': qos_specs.associate_qos_specs}),
    ('/qos-specs/{qos_id}/disassociate', {
        'GET': qos_specs.disassociate_qos_specs}),
    ('/qos-specs/{qos_id}/disassociate_all', {
        'GET': qos_specs.disassociate_all_qos_specs}),
    ('/os-services', {'GET': services.list_services}),
    ('/os-services/enable', {'PUT': services.enable_service}),
    ('/os-services/disable', {'PUT': services.disable_service}),
    ('/os-services/disable-log-reason', {
        'PUT': services.disable_service_log_reason}),
    ('/os-services/freeze', {'PUT': services.freeze_host}),
    ('/os-services/thaw', {'PUT': services.thaw_host}),
    ('/os-hosts', {'GET': hosts.list_hosts}),
    ('/os-hosts/{host_name}', {'GET': hosts.show_host}),
    ('/scheduler-stats/get_pools', {'GET': scheduler_stats.get_pools}),
    ('/capabilities/{host_name}', {
        'GET': scheduler_stats.show_capabilities}),
    ('/extensions', {'GET': extensions.list_extensions}),
    ('/os-availability-zone', {
        'GET': availability_zones.list_availability_zones}),
    ('/snapshots', {'GET': snapshots.list_snapshots,
                    'POST': snapshots.create_snapshot}),
    # Before /snapshots/{snapshot_id}: the first route that matches wins.
    ('/snapshots/detail', {'GET': snapshots.list_snapshots_detail}),
    ('/snapshots/{snapshot_id}', {'GET': snapshots.show_snapshot,
                                  'PUT': snapshots.update_snapshot,
                                  'DELETE': snapshots.delete_snapshot}),
    ('/snapshots/{snapshot_id}/action', {
        'POST': actions.Dispatcher('snapshot', snapshots.ACTIONS,
                                   unserved=snapshots.find_snapshot)}),
    ('/snapshots/{snapshot_id}/metadata', {
        'GET': snapshots.list_metadata,
        'POST': snapshots.create_metadata,
        'PUT': snapshots.replace_metadata}),
    ('/snapshots/{snapshot_id}/metadata/{key}', {
        'GET': snapshots.show_metadata_item,
        'PUT': snapshots.update_metadata_item,
        'DELETE': snapshots.delete_metadata_item}),
    ('/os-volume-transfer', {'GET': transfers.list_transfers_legacy,
                             'POST': transfers.create_transfer_legacy}),
    # Before /os-volume-transfer/{transfer_id}: the first route that
    # matches wins.
    ('/os-volume-transfer/detail', {
        'GET': transfers.list_transfers_detail_legacy}),
    ('/os-volume-transfer/{transfer_id}', {
        'GET': transfers.show_transfer_legacy,
        'DELETE': transfers.delete_transfer_legacy}),
    ('/os-volume-transfer/{transfer_id}/accept', {
        'POST': transfers.accept_transfer_legacy}),
    ('/volume-transfers', {'GET': transfers.list_transfers,
                           'POST': transfers.create_transfer}),
    ('/volume-transfers/detail', {
        'GET': transfers.list_transfers_detail}),
    ('/volume-transfers/{transfer_id}', {
        'GET': transfers.show_transfer,
        'DELETE': transfers.delete_transfer}),
    ('/volume-transfers/{transfer_id}/accept', {
        'POST': transfers.accept_transfer}),
    ('/backups', {'GET': backups.list_backups,
                  'POST': backups.create_backup}),
    # Before /backups/{backup_id}: the first route that matches wins.
    ('/backups/detail', {'GET': backups.list_backups_detail}),
    ('/backups/import_record', {'POST': backups.import_record}),
    ('/backups/{backup_id}', {'GET': backups.show_backup,
                              'PUT': backups.update_backup,
                              'DELETE': backups.delete_backup}),
    ('/backups/{backup_id}/restore', {'POST': backups.restore_backup}),
    ('/backups/{backup_id}/export_record', {'GET': backups.export_record}),
    ('/backups/{backup_id}/action', {
        'POST': actions.Dispatcher('backup', backups.ACTIONS)}),
    ('/group_types', {'GET': group_types.list_group_types,
                      'POST': group_types.create_group_type}),
    # Before /group_types/{group_type_id}: the first route that matches
    # wins.
    ('/group_types/default', {
        'GET': group_types.show_default_group_type}),
    ('/group_types/{group_type_id}', {
        'GET': group_types.show_group_type,
        'PUT': group_types.update_group_type,
        'DELETE': group_types.delete_group_type}),
    ('/group_types/{group_type_id}/group_specs', {
        'GET': group_types.list_group_specs,
        'POST': group_types.create_group_specs}),
    ('/group_types/{group_type_id}/group_specs/{key}', {
        'GET': group_types.show_group_spec,
        'PUT': group_types.update_group_spec,
        'DELETE': group_types.delete_group_spec}),
    ('/groups', {'GET': groups.list_groups, 'POST': groups.create_group}),
    # Before /groups/{group_id}: the first route that matches wins.
    ('/groups/detail', {'GET': groups.list_groups_detail}),
    ('/groups/action', {
        'POST': actions.Dispatcher('group', groups.COLLECTION_ACTIONS)}),
    ('/groups/{group_id}', {'GET': groups.show_group,
                            'PUT': groups.update_group}),
    ('/groups/{group_id}/action', {
        'POST': actions.Dispatcher('group', groups.ACTIONS,
                                   unserved=groups.find_group)}),
    ('/group_snapshots', {'GET': group_snapshots.list_group_snapshots,
                          'POST': group_snapshots.create_group_snapshot}),
    # Before /group_snapshots/{group_snapshot_id}: the first route that
    # matches wins.
    ('/group_snapshots/detail', {
        'GET': group_snapshots.list_group_snapshots_detail}),
    ('/group_snapshots/{group_snapshot_id}', {
        'GET': group_snapshots.show_group_snapshot,
        'DELETE': group_snapshots.delete_group_snapshot}),
    ('/group_snapshots/{group_snapshot_id}/action', {
        'POST': actions.Dispatcher('group snapshot',
                                   group_snapshots.ACTIONS)}),
    ('/attachments', {'GET': attachments.list_attachments,
                      'POST': attachments.create_attachment}),
    # Before /attachments/{attachment_id}: the first route that matches wins.
    ('/attachments/detail', {'GET': attachments.list_attachments_detail}),
    ('/attachments/{attachment_id}', {
        'GET': attachments.show_attachment,
        'PUT': attachments.update_attachment,
        'DELETE': attachments.delete_attachment}),
    ('/attachments/{attachment_id}/action', {
        'POST': attachments.complete_attachment}),
]


def declarations():
    # Every path without the project first: /v3/types/limits is the type
    # "limits", /v3/os-quota-sets/volumes the quota of project "volumes",
    # not /v3/{project_id}/limits or /v3/{project_id}/volumes. (Only a
    # project whose ID is a collection name is ambiguous the other way.)
    return ([('/v3' + path, methods) for path, methods in RESOURCES] +
            [('/v3/{project_id}' + path, methods)
             for path, methods in RESOURCES])
