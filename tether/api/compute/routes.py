"""The route table of the compute API: path -> {method: handler}."""

from tether.api import actions
from tether.api.compute.handlers import aggregates
from tether.api.compute.handlers import assisted_volume_snapshots
from tether.api.compute.handlers import availability_zones
from tether.api.compute.handlers import console_output
from tether.api.compute.handlers import extensions
from tether.api.compute.handlers import flavor_access
from tether.api.compute.handlers import flavor_extra_specs
from tether.api.compute.handlers import flavors
from tether.api.compute.handlers import hypervisors
from tether.api.compute.handlers import image_metadata
from tether.api.compute.handlers import images
from tether.api.compute.handlers import instance_actions
from tether.api.compute.handlers import keypairs
from tether.api.compute.handlers import limits
from tether.api.compute.handlers import lock_server
from tether.api.compute.handlers import pause_server
from tether.api.compute.handlers import quota_class_sets
from tether.api.compute.handlers import quota_sets
from tether.api.compute.handlers import rescue
from tether.api.compute.handlers import server_actions
from tether.api.compute.handlers import server_addresses
from tether.api.compute.handlers import server_external_events
from tether.api.compute.handlers import server_groups
from tether.api.compute.handlers import server_images
from tether.api.compute.handlers import server_metadata
from tether.api.compute.handlers import server_shares
from tether.api.compute.handlers import servers
from tether.api.compute.handlers import services
from tether.api.compute.handlers import simple_tenant_usage
from tether.api.compute.handlers import snapshots
from tether.api.compute.handlers import suspend_server
from tether.api.compute.handlers import volume_attachments
from tether.api.compute.handlers import volumes

_SERVER_ACTIONS = actions.Dispatcher('server', server_actions.ACTIONS,
                                     console_output.ACTIONS,
                                     lock_server.ACTIONS,
                                     pause_server.ACTIONS,
                                     suspend_server.ACTIONS,
                                     rescue.ACTIONS,
                                     server_images.ACTIONS)


def _servers(prefix):
    """The routes of the servers themselves under ``prefix``."""
    return [
        (prefix, {'GET': servers.list_servers,
                  'POST': servers.create_server}),
        # Before /{server_id}: the first route that matches wins.
        (prefix + '/detail', {'GET': servers.list_servers_detail}),
        (prefix + '/{server_id}', {'GET': servers.show_server,
                                   'PUT': servers.update_server,
                                   'DELETE': servers.delete_server}),
        (prefix + '/{server_id}/action', {'POST': _SERVER_ACTIONS}),
    ]


# Paths under /v2.1/{project_id}; each is also served under /v2.1 alone,
# as Nova does from 2.18 (tether accepts both at every version).
RESOURCES = _servers('/servers') + [
    ('/servers/{server_id}/metadata', {
        'GET': server_metadata.list_server_metadata,
        'POST': server_metadata.create_server_metadata,
        'PUT': server_metadata.update_all_server_metadata}),
    ('/servers/{server_id}/metadata/{key}', {
        'GET': server_metadata.show_server_metadata,
        'PUT': server_metadata.update_server_metadata,
        'DELETE': server_metadata.delete_server_metadata}),
    ('/servers/{server_id}/ips', {
        'GET': server_addresses.list_server_ips}),
    ('/servers/{server_id}/ips/{network_label}', {
        'GET': server_addresses.show_server_ips}),
    ('/servers/{server_id}/os-server-password', {
        'GET': server_addresses.show_server_password,
        'DELETE': server_addresses.clear_server_password}),
    ('/servers/{server_id}/os-volume_attachments', {
        'GET': volume_attachments.list_volume_attachments,
        'POST': volume_attachments.create_volume_attachment}),
    ('/servers/{server_id}/os-volume_attachments/{volume_id}', {
        'GET': volume_attachments.show_volume_attachment,
        'PUT': volume_attachments.update_volume_attachment,
        'DELETE': volume_attachments.delete_volume_attachment}),
    ('/servers/{server_id}/shares', {
        'GET': server_shares.list_server_shares,
        'POST': server_shares.create_server_share}),
    ('/servers/{server_id}/shares/{share_id}', {
        'GET': server_shares.show_server_share,
        'DELETE': server_shares.delete_server_share}),
    ('/servers/{server_id}/os-instance-actions', {
        'GET': instance_actions.list_instance_actions}),
    ('/servers/{server_id}/os-instance-actions/{request_id}', {
        'GET': instance_actions.show_instance_action}),
    ('/os-server-external-events', {
        'POST': server_external_events.create_external_events}),
    ('/os-assisted-volume-snapshots', {
        'POST': assisted_volume_snapshots.create}),
    ('/os-assisted-volume-snapshots/{snapshot_id}', {
        'DELETE': assisted_volume_snapshots.delete}),
    ('/flavors', {'GET': flavors.list_flavors,
                  'POST': flavors.create_flavor}),
    ('/flavors/detail', {'GET': flavors.list_flavors_detail}),
    ('/flavors/{flavor_id}', {'GET': flavors.show_flavor,
                              'PUT': flavors.update_flavor,
                              'DELETE': flavors.delete_flavor}),
    ('/flavors/{flavor_id}/action', {
        'POST': actions.Dispatcher('flavor', flavor_access.ACTIONS)}),
    ('/flavors/{flavor_id}/os-flavor-access', {
        'GET': flavor_access.list_flavor_access}),
    ('/flavors/{flavor_id}/os-extra_specs', {
        'GET': flavor_extra_specs.list_flavor_extra_specs,
        'POST': flavor_extra_specs.create_flavor_extra_specs}),
    ('/flavors/{flavor_id}/os-extra_specs/{flavor_extra_spec_key}', {
        'GET': flavor_extra_specs.show_flavor_extra_spec,
        'PUT': flavor_extra_specs.update_flavor_extra_spec,
        'DELETE': flavor_extra_specs.delete_flavor_extra_spec}),
    ('/os-keypairs', {'GET': keypairs.list_keypairs,
                      'POST': keypairs.create_keypair}),
    ('/os-keypairs/{keypair_name}', {
        'GET': keypairs.show_keypair,
        'DELETE': keypairs.delete_keypair}),
    ('/limits', {'GET': limits.show_limits}),
    ('/os-quota-sets/{target_project_id}', {
        'GET': quota_sets.show_quota_set,
        'PUT': quota_sets.update_quota_set,
        'DELETE': quota_sets.delete_quota_set}),
    ('/os-quota-sets/{target_project_id}/defaults', {
        'GET': quota_sets.show_quota_set_defaults}),
    ('/os-quota-sets/{target_project_id}/detail', {
        'GET': quota_sets.show_quota_set_detail}),
    ('/os-quota-class-sets/{quota_class}', {
        'GET': quota_class_sets.show_quota_class_set,
        'PUT': quota_class_sets.update_quota_class_set}),
    ('/os-services', {'GET': services.list_services}),
    ('/os-services/{service_id}', {'PUT': services.update_service,
                                   'DELETE': services.delete_service}),
    ('/os-hypervisors', {'GET': hypervisors.list_hypervisors}),
    ('/os-hypervisors/detail', {
        'GET': hypervisors.list_hypervisors_detail}),
    ('/os-hypervisors/statistics', {
        'GET': hypervisors.show_hypervisor_statistics}),
    ('/os-hypervisors/{hypervisor_id}', {
        'GET': hypervisors.show_hypervisor}),
    ('/os-hypervisors/{hypervisor_id}/uptime', {
        'GET': hypervisors.show_hypervisor_uptime}),
    ('/os-hypervisors/{hypervisor_hostname_pattern}/search', {
        'GET': hypervisors.search_hypervisors}),
    ('/os-hypervisors/{hypervisor_hostname_pattern}/servers', {
        'GET': hypervisors.list_hypervisor_servers}),
    ('/os-server-groups', {'GET': server_groups.list_server_groups,
                           'POST': server_groups.create_server_group}),
    ('/os-server-groups/{server_group_id}', {
        'GET': server_groups.show_server_group,
        'DELETE': server_groups.delete_server_group}),
    ('/os-aggregates', {'GET': aggregates.list_aggregates,
                        'POST': aggregates.create_aggregate}),
    ('/os-aggregates/{aggregate_id}', {
        'GET': aggregates.show_aggregate,
        'PUT': aggregates.update_aggregate,
        'DELETE': aggregates.delete_aggregate}),
    ('/os-aggregates/{aggregate_id}/action', {
        'POST': actions.Dispatcher('aggregate', aggregates.ACTIONS)}),
    ('/os-simple-tenant-usage', {
        'GET': simple_tenant_usage.list_simple_tenant_usage}),
    ('/os-simple-tenant-usage/{tenant_id}', {
        'GET': simple_tenant_usage.show_simple_tenant_usage}),
    ('/extensions', {'GET': extensions.list_extensions}),
    ('/extensions/{alias}', {'GET': extensions.show_extension}),
    ('/os-availability-zone', {
        'GET': availability_zones.list_availability_zones}),
    ('/os-availability-zone/detail', {
        'GET': availability_zones.list_availability_zones_detail}),
    # The proxies to the volume API, to 2.35 (their handlers say so).
    ('/os-volumes', {'GET': volumes.list_volumes,
                     'POST': volumes.create_volume}),
    ('/os-volumes/detail', {'GET': volumes.list_volumes_detail}),
    ('/os-volumes/{volume_id}', {'GET': volumes.show_volume,
                                 'DELETE': volumes.delete_volume}),
    ('/os-snapshots', {'GET': snapshots.list_snapshots,
                       'POST': snapshots.create_snapshot}),
    ('/os-snapshots/detail', {'GET': snapshots.list_snapshots_detail}),
    ('/os-snapshots/{snapshot_id}', {'GET': snapshots.show_snapshot,
                                     'DELETE': snapshots.delete_snapshot}),
    # The proxy to the image API: images to 2.35, their metadata to 2.38.
    ('/images', {'GET': images.list_images}),
    ('/images/detail', {'GET': images.list_images_detail}),
    ('/images/{image_id}', {'GET': images.show_image,
                            'DELETE': images.delete_image}),
    ('/images/{image_id}/metadata', {
        'GET': image_metadata.list_image_metadata,
        'POST': image_metadata.create_image_metadata,
        'PUT': image_metadata.update_all_image_metadata}),
    ('/images/{image_id}/metadata/{key}', {
        'GET': image_metadata.show_image_metadata,
        'PUT': image_metadata.update_image_metadata,
        'DELETE': image_metadata.delete_image_metadata}),
] + _servers('/os-volumes_boot')  # Nova's old name of /servers (to 2.102).


# Nova's legacy v2 endpoint: the same resources at microversion 2.1,
# with request bodies' unknown properties dropped (tether.api.wsgi.Router).
LEGACY_PREFIX = '/v2'


def declarations():
    # Every path without the project first, as for the volume API; then
    # the same under the legacy v2 endpoint.
    return [(prefix + path, methods)
            for prefix in ('/v2.1', '/v2.1/{project_id}',
                           LEGACY_PREFIX, LEGACY_PREFIX + '/{project_id}')
            for path, methods in RESOURCES]
