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
    'volume POST /volumes/{volume_id}/action os-reset_status': Spec(
        body={'os-reset_status': {'status': 'available'}}),
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
                  'type': lambda: body['volume_type']['id'],
                  'flavor': lambda: body['flavor']['id']}[kind]()
