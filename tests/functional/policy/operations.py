"""How the policy matrix calls each operation of matrix.txt.

A row's name gives the method and the path; the placeholders of the path
are filled from the World (project A's shared resources). ``Spec`` adds
what a row needs besides: a body, other resources for some placeholders
(``use``), ``fresh``, the kind of throwaway resource that a persona
allowed to destroy gets in place of the shared one, and ``version``, the
microversion of a row that is not served at the matrix's (the proxies to
the volume API, to 2.35; the older hypervisor routes).
"""

import collections
import re
import uuid

from tests.functional.policy import world as world_mod

Spec = collections.namedtuple('Spec', 'body use fresh creates version',
                              defaults=(None, None, None, None, None))

_IMAGE = str(uuid.UUID(int=7))
# The server with no task (k=v): writes of what is there already.
_META = {'server_id': 'metadata_server_id'}
# The flavor with the extra spec k=v; the private flavor another project
# has access to.
_SPECS = {'flavor_id': 'specs_flavor_id'}
_ACCESS = {'flavor_id': 'access_flavor_id'}
_TRANSFERS = ('/os-volume-transfer', '/volume-transfers')
_SPEC_KEY = ('compute %s /flavors/{flavor_id}/os-extra_specs/'
             '{flavor_extra_spec_key}')


def _new_name(prefix):
    return lambda ids: '%s-%s' % (prefix, uuid.uuid4().hex[:8])


SPECS = {
    'volume POST /volumes': Spec(
        body={'volume': {'size': 1, 'name': 'pm-new'}}, creates='volume'),
    'volume PUT /volumes/{volume_id}': Spec(
        body={'volume': {'name': 'pm-vol'}}),
    'volume DELETE /volumes/{volume_id}': Spec(fresh='volume'),
    'volume DELETE /volumes/{volume_id}?force=true': Spec(fresh='volume'),
    'volume POST /volumes/{volume_id}/action os-force_delete': Spec(
        body={'os-force_delete': {}}, fresh='volume'),
    'volume PUT /os-quota-class-sets/{class_name}': Spec(
        body={'quota_class_set': {'volumes': 100}}),
    # Project A's: it stays without a limit on servers (the rows make
    # more than the default ten).
    'compute PUT /os-quota-sets/{target_project_id}': Spec(
        body={'quota_set': {'instances': -1}}),
    'compute DELETE /os-quota-sets/{target_project_id}': Spec(
        fresh='quota'),
    'compute PUT /os-quota-class-sets/{quota_class}': Spec(
        body={'quota_class_set': {'instances': 10}}),
    'volume POST /volumes/{volume_id}/action os-extend': Spec(
        body={'os-extend': {'new_size': 2}}, fresh='volume'),
    'volume POST /volumes/{volume_id}/action os-extend_volume_completion':
        Spec(body={'os-extend_volume_completion': {'error': False}}),
    # A reserved volume: the re-image and the upload are refused (400)
    # once the policy let them through.
    'volume POST /volumes/{volume_id}/action os-reimage': Spec(
        body=lambda ids: {'os-reimage': {'image_id': ids['image_id'],
                                         'reimage_reserved': False}},
        use={'volume_id': 'reserved_id'}),
    # A 2xx reserves a throwaway volume; os-unreserve and
    # os-roll_detaching of the shared volume (available) change nothing,
    # its os-begin_detaching is refused (it is not in-use).
    'volume POST /volumes/{volume_id}/action os-reserve': Spec(
        body={'os-reserve': None}, fresh='volume'),
    'volume POST /volumes/{volume_id}/action os-unreserve': Spec(
        body={'os-unreserve': None}),
    'volume POST /volumes/{volume_id}/action os-begin_detaching': Spec(
        body={'os-begin_detaching': None}),
    'volume POST /volumes/{volume_id}/action os-roll_detaching': Spec(
        body={'os-roll_detaching': None}),
    # A 2xx of os-attach attaches a throwaway volume; the others find
    # nothing to detach or disconnect on the shared volume, and refuse
    # to connect it (it is not reserved).
    'volume POST /volumes/{volume_id}/action os-attach': Spec(
        body={'os-attach': {'host_name': 'pm-host',
                            'mountpoint': '/dev/vdb'}}, fresh='volume'),
    'volume POST /volumes/{volume_id}/action os-detach': Spec(
        body={'os-detach': {}}),
    'volume POST /volumes/{volume_id}/action os-force_detach': Spec(
        body={'os-force_detach': {}}),
    'volume POST /volumes/{volume_id}/action os-initialize_connection':
        Spec(body={'os-initialize_connection': {
            'connector': {'host': 'pm-host'}}}),
    'volume POST /volumes/{volume_id}/action os-terminate_connection':
        Spec(body={'os-terminate_connection': {
            'connector': {'host': 'pm-host'}}}),
    'volume POST /volumes/{volume_id}/action os-reset_status': Spec(
        body={'os-reset_status': {'status': 'available'}}),
    # A snapshot that is not the volume's latest: refused (400) once the
    # policy let it through.
    'volume POST /volumes/{volume_id}/action revert': Spec(
        body={'revert': {'snapshot_id': str(uuid.UUID(int=5))}}),
    # Writes of what is there already: nothing changes.
    'volume POST /volumes/{volume_id}/action os-set_bootable': Spec(
        body={'os-set_bootable': {'bootable': False}}),
    'volume POST /volumes/{volume_id}/action os-update_readonly_flag': Spec(
        body={'os-update_readonly_flag': {'readonly': False}},
        fresh='volume'),
    'volume POST /volumes/{volume_id}/action os-volume_upload_image': Spec(
        body={'os-volume_upload_image': {'image_name': 'pm'}},
        use={'volume_id': 'reserved_id'}),
    'volume POST /volumes/{volume_id}/action os-set_image_metadata': Spec(
        body={'os-set_image_metadata': {'metadata': {'k': 'v'}}}),
    'volume POST /volumes/{volume_id}/action os-show_image_metadata': Spec(
        body={'os-show_image_metadata': {}}),
    'volume POST /volumes/{volume_id}/action os-unset_image_metadata': Spec(
        body={'os-unset_image_metadata': {'key': 'k'}},
        fresh='image_metadata_volume'),
    # Writes of what is there already: nothing changes.
    'volume POST /volumes/{volume_id}/metadata': Spec(
        body={'metadata': {'k': 'v'}}),
    'volume PUT /volumes/{volume_id}/metadata': Spec(
        body={'metadata': {'k': 'v'}}),
    'volume PUT /volumes/{volume_id}/metadata/{key}': Spec(
        body={'meta': {'k': 'v'}}),
    'volume DELETE /volumes/{volume_id}/metadata/{key}': Spec(
        fresh='volume'),
    'volume POST /snapshots': Spec(
        body=lambda ids: {'snapshot': {'volume_id': ids['snapshot_volume_id'],
                                       'name': 'pm-new'}}),
    'volume PUT /snapshots/{snapshot_id}': Spec(
        body={'snapshot': {'name': 'pm-snap'}}),
    'volume DELETE /snapshots/{snapshot_id}': Spec(fresh='snapshot'),
    'volume POST /snapshots/{snapshot_id}/action os-reset_status': Spec(
        body={'os-reset_status': {'status': 'available'}}),
    # An available snapshot: the report is refused (400) once allowed.
    'volume POST /snapshots/{snapshot_id}/action os-update_snapshot_status':
        Spec(body={'os-update_snapshot_status': {'status': 'available'}}),
    'volume POST /snapshots/{snapshot_id}/action os-force_delete': Spec(
        body={'os-force_delete': {}}, fresh='snapshot'),
    'volume POST /snapshots/{snapshot_id}/metadata': Spec(
        body={'metadata': {'k': 'v'}}),
    'volume PUT /snapshots/{snapshot_id}/metadata': Spec(
        body={'metadata': {'k': 'v'}}),
    'volume PUT /snapshots/{snapshot_id}/metadata/{key}': Spec(
        body={'meta': {'k': 'v'}}),
    'volume DELETE /snapshots/{snapshot_id}/metadata/{key}': Spec(
        fresh='snapshot'),
    # A reserved volume: a backup of it, or a restore into it, is
    # refused (400) once the policy let it through.
    'volume POST /backups': Spec(
        body=lambda ids: {'backup': {'volume_id': ids['reserved_id']}}),
    'volume PUT /backups/{backup_id}': Spec(
        body={'backup': {'name': 'pm-backup'}}),
    'volume DELETE /backups/{backup_id}': Spec(fresh='backup'),
    'volume POST /backups/{backup_id}/action os-reset_status': Spec(
        body={'os-reset_status': {'status': 'available'}}),
    'volume POST /backups/{backup_id}/action os-force_delete': Spec(
        body={'os-force_delete': {}}, fresh='backup'),
    'volume POST /backups/{backup_id}/restore': Spec(
        body=lambda ids: {'restore': {'volume_id': ids['reserved_id']}}),
    # A record of no backup: refused (400) once allowed.
    'volume POST /backups/import_record': Spec(
        body={'backup-record': {'backup_service': 'pm',
                                'backup_url': 'e30='}}),
    'volume PUT /os-quota-sets/{target_project_id}': Spec(
        body={'quota_set': {'volumes': 100}}),
    'volume DELETE /os-quota-sets/{target_project_id}': Spec(
        fresh='quota'),
    'volume POST /types': Spec(
        body=lambda ids: {'volume_type': {'name': _new_name('pm-t')(ids)}},
        creates='type'),
    'volume PUT /types/{type_id}': Spec(
        body={'volume_type': {'description': 'pm'}}),
    'volume DELETE /types/{type_id}': Spec(fresh='volume_type'),
    # A key users may see (others are for administrators only).
    'volume GET /types/{type_id}/extra_specs/{key}': Spec(
        use={'key': 'spec_key'}),
    'volume POST /types/{type_id}/extra_specs': Spec(
        body={'extra_specs': {'multiattach': '<is> False'}}),
    'volume PUT /types/{type_id}/extra_specs/{key}': Spec(
        body={'multiattach': '<is> False'}, use={'key': 'spec_key'}),
    'volume DELETE /types/{type_id}/extra_specs/{key}': Spec(
        fresh='volume_type', use={'key': 'spec_key'}),
    # The private type project A may use; an add names a new project.
    'volume GET /types/{type_id}/os-volume-type-access': Spec(
        use={'type_id': 'private_type_id'}),
    'volume POST /types/{type_id}/action addProjectAccess': Spec(
        body=lambda ids: {'addProjectAccess': {
            'project': _new_name('pm-p')(ids)}},
        use={'type_id': 'private_type_id'}),
    'volume POST /types/{type_id}/action removeProjectAccess': Spec(
        body=lambda ids: {'removeProjectAccess': {
            'project': ids['target_project_id']}},
        use={'type_id': 'private_type_id'}, fresh='private_type'),
    # Project A's default type set again (nothing changes); a throwaway
    # project's unset.
    'volume PUT /default-types/{target_project_id}': Spec(
        body=lambda ids: {'default_type': {
            'volume_type': ids['default_type_id']}}),
    'volume DELETE /default-types/{target_project_id}': Spec(
        fresh='default_type'),
    # A transfer with a key no one has: refused (400) once the policy
    # let the accept through.
    **{'volume POST %s/{transfer_id}/accept' % path: Spec(
        body={'accept': {'auth_key': 'not-the-key'}})
       for path in _TRANSFERS},
    **{'volume POST %s' % path: Spec(
        body=lambda ids: {'transfer': {'volume_id': ids['volume_id']}},
        fresh='volume') for path in _TRANSFERS},
    **{'volume DELETE %s/{transfer_id}' % path: Spec(fresh='transfer')
       for path in _TRANSFERS},
    'volume POST /volumes/{volume_id}/action os-retype': Spec(
        body=lambda ids: {'os-retype': {'new_type': ids['retype_type_id']}},
        fresh='volume'),
    'volume POST /qos-specs': Spec(
        body=lambda ids: {'qos_specs': {'name': _new_name('pm-q')(ids)}},
        creates='qos_specs'),
    # Writes what is there already.
    'volume PUT /qos-specs/{qos_id}': Spec(body={'qos_specs': {'k': 'v'}}),
    'volume DELETE /qos-specs/{qos_id}': Spec(fresh='qos_specs'),
    'volume PUT /qos-specs/{qos_id}/delete_keys': Spec(
        body={'keys': ['k']}, fresh='qos_specs'),
    'volume DELETE /messages/{message_id}': Spec(fresh='message'),
    # Generic groups: the world's group type (spec k=v), group (with a
    # volume) and group snapshot; throwaway ones where a row destroys.
    'volume POST /group_types': Spec(
        body=lambda ids: {'group_type': {'name': _new_name('pm-g')(ids)}},
        creates='group_type'),
    'volume PUT /group_types/{group_type_id}': Spec(
        body={'group_type': {'description': 'pm'}}),
    'volume DELETE /group_types/{group_type_id}': Spec(fresh='group_type'),
    # Writes what is there already.
    'volume POST /group_types/{group_type_id}/group_specs': Spec(
        body={'group_specs': {'k': 'v'}}),
    'volume PUT /group_types/{group_type_id}/group_specs/{key}': Spec(
        body={'k': 'v'}),
    'volume DELETE /group_types/{group_type_id}/group_specs/{key}': Spec(
        fresh='group_type'),
    'volume POST /groups': Spec(
        body=lambda ids: {'group': {
            'name': 'pm-new-group', 'group_type': ids['group_type_id'],
            'volume_types': [ids['default_type_id']]}},
        creates='group'),
    # A group takes a change only (a description of its own each time).
    'volume PUT /groups/{group_id}': Spec(
        body=lambda ids: {'group': {'description': _new_name('pm')(ids)}}),
    # A copy of a group without volumes: refused (400, as Cinder) once
    # the policy let it through.
    'volume POST /groups/action create-from-src': Spec(
        body=lambda ids: {'create-from-src': {
            'name': 'pm-copy', 'source_group_id': ids['empty_group_id']}},
        creates='group'),
    'volume POST /groups/{group_id}/action delete': Spec(
        body={'delete': {'delete-volumes': False}}, fresh='empty_group'),
    'volume POST /groups/{group_id}/action reset_status': Spec(
        body={'reset_status': {'status': 'available'}}),
    'volume POST /group_snapshots': Spec(
        body=lambda ids: {'group_snapshot': {
            'group_id': ids['empty_group_id'], 'name': 'pm-new-gsnap'}},
        creates='group_snapshot'),
    'volume DELETE /group_snapshots/{group_snapshot_id}': Spec(
        fresh='group_snapshot'),
    'volume POST /group_snapshots/{group_snapshot_id}/action reset_status':
        Spec(body={'reset_status': {'status': 'available'}}),
    # The matrix's own volume service (enabled, disabled); a fresh one
    # to freeze, a fresh frozen one to thaw.
    **{'volume PUT /os-services/%s' % action: Spec(
        body=lambda ids, b=body: dict(b, host=ids['volume_host'],
                                      binary='cinder-volume'))
       for action, body in (('enable', {}), ('disable', {}),
                            ('disable-log-reason',
                             {'disabled_reason': 'pm'}))},
    'volume PUT /os-services/freeze': Spec(
        body=lambda ids: {'host': ids['volume_host']},
        fresh='volume_service'),
    'volume PUT /os-services/thaw': Spec(
        body=lambda ids: {'host': ids['volume_host']},
        fresh='frozen_volume_service'),
    'volume POST /attachments': Spec(
        body=lambda ids: {'attachment': {
            'volume_uuid': ids['volume_id'],
            'instance_uuid': str(uuid.uuid4())}}, fresh='volume'),
    'volume PUT /attachments/{attachment_id}': Spec(
        body={'attachment': {'connector': world_mod.CONNECTOR}},
        fresh='attachment'),
    'volume DELETE /attachments/{attachment_id}': Spec(fresh='attachment'),
    # The shared attachment has no connection yet: 400 once allowed.
    'volume POST /attachments/{attachment_id}/action': Spec(
        body={'os-complete': None}),
    # An unknown flavor: 400 once allowed, and no guest is booted.
    'compute POST /servers': Spec(body={'server': {
        'name': 'pm-new', 'flavorRef': 'pm-no-such-flavor',
        'imageRef': _IMAGE, 'networks': 'none'}}),
    'compute PUT /servers/{server_id}': Spec(
        body={'server': {'name': 'pm-srv'}}),
    'compute DELETE /servers/{server_id}': Spec(fresh='server'),
    # The shared server has a task under way: 409 once allowed.
    'compute POST /servers/{server_id}/action os-start': Spec(
        body={'os-start': None}),
    'compute POST /servers/{server_id}/action os-stop': Spec(
        body={'os-stop': None}),
    'compute POST /servers/{server_id}/action reboot': Spec(
        body={'reboot': {'type': 'SOFT'}}),
    'compute POST /servers/{server_id}/action rebuild': Spec(
        body={'rebuild': {'imageRef': _IMAGE}}),
    'compute POST /servers/{server_id}/action os-getConsoleOutput': Spec(
        body={'os-getConsoleOutput': {}}),
    # A lock (or unlock) is accepted in any state: a throwaway server.
    'compute POST /servers/{server_id}/action lock': Spec(
        body={'lock': None}, fresh='server'),
    'compute POST /servers/{server_id}/action unlock': Spec(
        body={'unlock': None}, fresh='server'),
    'compute POST /servers/{server_id}/action pause': Spec(
        body={'pause': None}),
    'compute POST /servers/{server_id}/action unpause': Spec(
        body={'unpause': None}),
    'compute POST /servers/{server_id}/action suspend': Spec(
        body={'suspend': None}),
    'compute POST /servers/{server_id}/action resume': Spec(
        body={'resume': None}),
    'compute POST /servers/{server_id}/action rescue': Spec(
        body={'rescue': None}),
    'compute POST /servers/{server_id}/action unrescue': Spec(
        body={'unrescue': None}),
    # The shared server boots from a volume and has a task under way:
    # createImage 409 once allowed, createBackup 400 (volume-backed).
    'compute POST /servers/{server_id}/action createImage': Spec(
        body={'createImage': {'name': 'pm-image'}}),
    'compute POST /servers/{server_id}/action createBackup': Spec(
        body={'createBackup': {'name': 'pm-backup', 'backup_type': 'daily',
                               'rotation': 1}}),
    'compute POST /servers/{server_id}/os-volume_attachments': Spec(
        body=lambda ids: {'volumeAttachment': {
            'volumeId': ids['reserved_id']}}),
    'compute GET /servers/{server_id}/metadata': Spec(use=_META),
    'compute POST /servers/{server_id}/metadata': Spec(
        body={'metadata': {'k': 'v'}}, use=_META),
    'compute PUT /servers/{server_id}/metadata': Spec(
        body={'metadata': {'k': 'v'}}, use=_META),
    'compute GET /servers/{server_id}/metadata/{key}': Spec(use=_META),
    'compute PUT /servers/{server_id}/metadata/{key}': Spec(
        body={'meta': {'k': 'v'}}, use=_META),
    'compute DELETE /servers/{server_id}/metadata/{key}': Spec(
        fresh='server', use=_META),
    # Each persona's own key pair; project A's member's is deleted from
    # a throwaway one.
    'compute POST /os-keypairs': Spec(
        body=lambda ids: {'keypair': {
            'name': _new_name('pm-kp')(ids),
            'public_key': world_mod.PUBLIC_KEY}}),
    'compute DELETE /os-keypairs/{keypair_name}': Spec(fresh='keypair'),
    'compute DELETE /os-keypairs/{keypair_name}?user_id={keypair_user_id}':
        Spec(fresh='keypair'),
    'compute POST /servers/{server_id}/shares': Spec(
        body={'share': {'share_id': str(uuid.UUID(int=9))}}),
    # Writes what is there already (the shared server's volume_id row).
    'compute PUT /servers/{server_id}/os-volume_attachments/{volume_id}':
        Spec(body=lambda ids: {'volumeAttachment': {
            'volumeId': ids['volume_id'], 'delete_on_termination': False}}),
    'compute POST /os-server-external-events': Spec(
        body=lambda ids: {'events': [{'name': 'network-changed',
                                      'server_uuid': ids['server_id']}]}),
    # A volume on no server: refused (400) once the policy let it
    # through; the delete has no delete_info (400 after the policy).
    'compute POST /os-assisted-volume-snapshots': Spec(
        body={'snapshot': {'volume_id': str(uuid.UUID(int=11)),
                           'create_info': {
                               'snapshot_id': str(uuid.UUID(int=12)),
                               'type': 'qcow2', 'new_file': 'pm'}}}),
    'compute POST /flavors': Spec(
        body=lambda ids: {'flavor': {'name': _new_name('pm-f')(ids),
                                     'ram': 64, 'vcpus': 1, 'disk': 1}},
        creates='flavor'),
    'compute DELETE /flavors/{flavor_id}': Spec(fresh='flavor'),
    'compute PUT /flavors/{flavor_id}': Spec(
        body={'flavor': {'description': 'pm'}}, fresh='flavor'),
    'compute POST /flavors/{flavor_id}/action addTenantAccess': Spec(
        body=lambda ids: {'addTenantAccess': {
            'tenant': ids['access_project_id']}},
        use=_ACCESS, fresh='private_flavor'),
    'compute POST /flavors/{flavor_id}/action removeTenantAccess': Spec(
        body=lambda ids: {'removeTenantAccess': {
            'tenant': ids['access_project_id']}},
        use=_ACCESS, fresh='shared_flavor'),
    'compute GET /flavors/{flavor_id}/os-flavor-access': Spec(use=_ACCESS),
    'compute GET /flavors/{flavor_id}/os-extra_specs': Spec(use=_SPECS),
    'compute POST /flavors/{flavor_id}/os-extra_specs': Spec(
        body={'extra_specs': {'k': 'v'}}, use=_SPECS,
        fresh='specs_flavor'),
    _SPEC_KEY % 'GET': Spec(use=_SPECS),
    _SPEC_KEY % 'PUT': Spec(body={'k': 'v'}, use=_SPECS,
                            fresh='specs_flavor'),
    _SPEC_KEY % 'DELETE': Spec(use=_SPECS, fresh='specs_flavor'),
    'compute POST /os-server-groups': Spec(
        body={'server_group': {'name': 'pm-new',
                               'policy': 'anti-affinity'}},
        creates='server_group'),
    'compute DELETE /os-server-groups/{server_group_id}': Spec(
        fresh='server_group'),
    'compute POST /os-aggregates': Spec(
        body=lambda ids: {'aggregate': {'name': ids['aggregate_name'] +
                                        '-' + uuid.uuid4().hex[:6]}},
        creates='aggregate'),
    # Its own name again: nothing changes.
    'compute PUT /os-aggregates/{aggregate_id}': Spec(
        body=lambda ids: {'aggregate': {'name': ids['aggregate_name']}}),
    'compute DELETE /os-aggregates/{aggregate_id}': Spec(fresh='aggregate'),
    'compute POST /os-aggregates/{aggregate_id}/action add_host': Spec(
        body=lambda ids: {'add_host': {'host': ids['aggregate_host']}},
        fresh='aggregate'),
    'compute POST /os-aggregates/{aggregate_id}/action remove_host': Spec(
        body=lambda ids: {'remove_host': {'host': ids['aggregate_host']}},
        fresh='aggregate_with_host'),
    'compute POST /os-aggregates/{aggregate_id}/action set_metadata': Spec(
        body={'set_metadata': {'metadata': {'k': 'v'}}}),
    'compute PUT /os-services/{service_id}': Spec(
        body={'status': 'enabled'}),
    'compute DELETE /os-services/{service_id}': Spec(
        fresh='compute_service'),
}

# The proxies to the volume API, served to 2.35 (snapshots of project
# A's volume with a snapshot).
_PROXY = '2.35'
SPECS.update({
    'compute GET /os-volumes': Spec(version=_PROXY),
    'compute GET /os-volumes/detail': Spec(version=_PROXY),
    'compute GET /os-volumes/{volume_id}': Spec(version=_PROXY),
    'compute POST /os-volumes': Spec(
        body={'volume': {'size': 1, 'display_name': 'pm-new'}},
        creates='volume', version=_PROXY),
    'compute DELETE /os-volumes/{volume_id}': Spec(fresh='volume',
                                                   version=_PROXY),
    'compute GET /os-snapshots': Spec(version=_PROXY),
    'compute GET /os-snapshots/detail': Spec(version=_PROXY),
    'compute POST /os-snapshots': Spec(
        body=lambda ids: {'snapshot': {
            'volume_id': ids['snapshot_volume_id']}}, version=_PROXY),
    'compute GET /os-snapshots/{snapshot_id}': Spec(version=_PROXY),
    'compute DELETE /os-snapshots/{snapshot_id}': Spec(fresh='snapshot',
                                                       version=_PROXY),
})
# The proxy to the image API: images to 2.35, their metadata to 2.38, of
# project A's private image (k=v); a write of what is there already,
# a delete of a throwaway image.
_IMAGE_OF_A = {'image_id': 'project_image_id'}
SPECS.update({
    'compute GET /images': Spec(version=_PROXY),
    'compute GET /images/detail': Spec(version=_PROXY),
    'compute GET /images/{image_id}': Spec(use=_IMAGE_OF_A,
                                           version=_PROXY),
    'compute DELETE /images/{image_id}': Spec(
        use=_IMAGE_OF_A, fresh='project_image', version=_PROXY),
    'compute GET /images/{image_id}/metadata': Spec(use=_IMAGE_OF_A,
                                                    version='2.38'),
    'compute POST /images/{image_id}/metadata': Spec(
        body={'metadata': {'k': 'v'}}, use=_IMAGE_OF_A, version='2.38'),
    'compute PUT /images/{image_id}/metadata': Spec(
        body={'metadata': {'k': 'v'}}, use=_IMAGE_OF_A, version='2.38'),
    'compute GET /images/{image_id}/metadata/{key}': Spec(
        use=_IMAGE_OF_A, version='2.38'),
    'compute PUT /images/{image_id}/metadata/{key}': Spec(
        body={'meta': {'k': 'v'}}, use=_IMAGE_OF_A, version='2.38'),
    'compute DELETE /images/{image_id}/metadata/{key}': Spec(
        use=_IMAGE_OF_A, fresh='project_image', version='2.38'),
})
# The hypervisor routes Nova serves up to a version: statistics and
# uptime to 2.87 (UUIDs from 2.53, as the world's hypervisor_id), search
# and servers to 2.52 (by a part of the host name).
SPECS.update({
    'compute GET /os-hypervisors/statistics': Spec(version='2.87'),
    'compute GET /os-hypervisors/{hypervisor_id}/uptime': Spec(
        version='2.87'),
    'compute GET /os-hypervisors/{hypervisor_hostname_pattern}/search':
        Spec(version='2.52'),
    'compute GET /os-hypervisors/{hypervisor_hostname_pattern}/servers':
        Spec(version='2.52'),
})
# /os-volumes_boot is /servers under Nova's old name: the same calls.
SPECS.update({name.replace(' /servers', ' /os-volumes_boot', 1): spec
              for name, spec in list(SPECS.items())
              if re.match(r'compute \w+ /servers(/{server_id}(/action'
                          r' [\w-]+)?)?$', name)})

_PLACEHOLDER = re.compile(r'{(\w+)}')


def request(name, world, allowed):
    """(api, method, path, body) of row ``name`` for a persona that the
    table allows (2xx: it gets a throwaway resource where the row
    destroys) or not."""
    api, method, rest = name.split(' ', 2)
    path = rest.split(' ', 1)[0]
    spec = SPECS.get(name, Spec())
    ids = dict(world.ids)
    for placeholder, source in (spec.use or {}).items():
        ids[placeholder] = world.ids[source]
    if spec.fresh and allowed:
        ids.update(getattr(world, spec.fresh)())
    body = spec.body(ids) if callable(spec.body) else spec.body
    return api, method, _PLACEHOLDER.sub(lambda m: ids[m.group(1)],
                                         path), body


def headers(name):
    """The headers of row ``name`` beyond the persona's (its version)."""
    version = SPECS.get(name, Spec()).version
    if version is None:
        return None
    return {'OpenStack-API-Version': 'compute %s' % version}


def created(name, resp):
    """(kind, id) of what an allowed call of row ``name`` created."""
    kind = SPECS.get(name, Spec()).creates
    if not kind or resp.status_code >= 300:
        return None
    body = resp.json()
    return kind, {'volume': lambda: body['volume']['id'],
                  'qos_specs': lambda: body['qos_specs']['id'],
                  'group_type': lambda: body['group_type']['id'],
                  'group': lambda: body['group']['id'],
                  'group_snapshot': lambda: body['group_snapshot']['id'],
                  'type': lambda: body['volume_type']['id'],
                  'flavor': lambda: body['flavor']['id'],
                  'server_group': lambda: body['server_group']['id'],
                  'aggregate': lambda: body['aggregate']['id']}[kind]()
