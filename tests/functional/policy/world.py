"""Project A's resources for the policy matrix, the personas' clients,
and throwaway resources for the calls that destroy what they act on.

Servers are database rows (as tests/functional/compute/conftest.py makes
them): every server call the matrix makes is decided before a guest
would matter. The shared server has a task under way, so the calls that
would change it are refused (409) once the policy let them through.
"""

import uuid

from cryptography.hazmat.primitives.asymmetric import ed25519
from cryptography.hazmat.primitives import serialization
import sqlalchemy as sa

from tests.functional import helpers
from tests.functional import image_helpers
from tether.compute import instance_state
from tether import context as t_context
from tether.db.compute import block_device_mapping as db_bdms
from tether.db.compute import instance_action as db_actions
from tether.db.compute import models
from tether.db.compute import service as db_services
from tether.db import session
from tether.db.volume import models as volume_models
from tether.db.volume import service as db_volume_services
from tests.functional.policy import table

VOLUME_VERSION = '3.71'
COMPUTE_VERSION = '2.97'
CONNECTOR = {'host': 'pm-host', 'initiator': 'iqn.2024-01.pm:host',
             'platform': 'x86_64', 'os_type': 'linux', 'multipath': False}
PUBLIC_KEY = ed25519.Ed25519PrivateKey.generate().public_key().public_bytes(
    serialization.Encoding.OpenSSH,
    serialization.PublicFormat.OpenSSH).decode() + ' pm@example.org'


def _admin():
    return t_context.get_admin_context()


class World:
    def __init__(self, aio, wait):
        self.aio, self.wait = aio, wait
        tag = uuid.uuid4().hex[:6]
        self.projects = {'A': 'pm-a-' + tag, 'B': 'pm-b-' + tag,
                         'S': 'pm-svc-' + tag}
        self.clients = {}
        for column, (project, role) in table.PERSONAS.items():
            user, project = 'pm-%s-%s' % (column, tag), self.projects[project]
            self.clients[column] = {
                'volume': aio.http(user, project, [role], VOLUME_VERSION),
                'compute': aio.compute_http(user, project, [role],
                                            COMPUTE_VERSION)}
        self.tag = tag
        self.ids = {'key': 'k', 'spec_key': 'multiattach',
                    'target_project_id': self.projects['A'],
                    'flavor_id': '1',
                    # A quota class of the matrix's own (the default
                    # class's limits are every project's defaults).
                    'quota_class': 'pm-class-' + tag,
                    'class_name': 'pm-class-' + tag}
        self.volumes, self.types, self.servers = [], [], []
        self.flavors, self.services, self.images = [], [], []
        self.default_projects = []
        self.qos, self.volume_hosts = [], []
        self.group_types, self.groups, self.group_volumes = [], [], []
        # (api, kind, id) of what the allowed calls created.
        self.created = []
        self.image_admin = None

    def http(self, column, api='volume'):
        return self.clients[column][api]

    def project_image_as_admin(self):
        """Project A's image as the image API shows an administrator
        (one connection for the module: a new one discovers the image
        API's versions again)."""
        if self.image_admin is None:
            self.image_admin = self.aio.admin().image
        resp = self.image_admin.get('/images/%s'
                                    % self.ids['project_image_id'])
        assert resp.status_code == 200, resp.text
        return resp.json()

    # Project A -------------------------------------------------------------

    def build(self):
        member = self.http('mA')
        self.quota(self.projects['A'])
        self.image = image_helpers.upload(self.aio.admin(), b'pm' * 512,
                                          visibility='public')
        self.ids['image_id'] = self.image.id
        # A private image of project A (property k=v): the image proxy's.
        self.ids['project_image_id'] = self.project_image()['image_id']
        self.ids['volume_id'] = self.volume()['volume_id']
        self.ids['reserved_id'] = self.volume()['volume_id']
        self.ids['attachment_id'] = self._attachment(
            member, self.ids['reserved_id'])
        # An attached attachment (a connector, completed): its volume
        # shows a host_name.
        self.ids['attached_id'] = self.volume()['volume_id']
        resp = member.post('/attachments', json={'attachment': {
            'volume_uuid': self.ids['attached_id'],
            'instance_uuid': str(uuid.uuid4()), 'connector': CONNECTOR}})
        assert resp.status_code == 200, resp.text
        resp = member.post('/attachments/%s/action'
                           % resp.json()['attachment']['id'],
                           json={'os-complete': None})
        assert resp.status_code == 204, resp.text
        # A volume with a snapshot (k=v), which snapshot creates name too.
        self.ids['snapshot_id'] = self.snapshot()['snapshot_id']
        # A volume offered for transfer.
        self.ids['transfer_id'] = self.transfer()['transfer_id']
        # A backup (available).
        self.ids['backup_id'] = self.backup()['backup_id']
        self.ids['type_id'] = self.volume_type()['type_id']
        # A type the aio's backend satisfies, for retypes.
        self.ids['retype_type_id'] = self.plain_type()['type_id']
        self.ids['qos_id'] = self.qos_specs()['qos_id']
        # A volume of project A no backend could hold, and its message.
        self.ids['message_id'] = self.message()['message_id']
        # A volume service record (enabled and disabled by the matrix),
        # and the aio's own backend (shown, never changed).
        self.ids['volume_host'] = self.volume_service()['volume_host']
        resp = self.http('aA').get('/os-services?binary=cinder-volume')
        self.ids['host_name'] = [s['host'] for s in resp.json()['services']
                                 if s['host'].endswith('@local')][0]
        self.ids['private_type_id'] = self.private_type()['type_id']
        # Project A's default volume type: a type of its own, so that the
        # volumes the rows create do not use the shared one; without extra
        # specs, so that every backend can hold them.
        self.ids['default_type_id'] = self.plain_type()['type_id']
        self.default_type(self.projects['A'])
        # A group type (spec k=v), a group of project A with a volume of
        # its own (of its default type), a group snapshot of it, and a
        # group without volumes.
        self.ids['group_type_id'] = self.group_type()['group_type_id']
        self.ids['group_id'] = self.group()['group_id']
        self.ids['group_snapshot_id'] = self.group_snapshot()[
            'group_snapshot_id']
        self.ids['empty_group_id'] = self.empty_group()['group_id']
        # Room for the servers the rows make in project A (more than the
        # default ten).
        resp = self.http('aA', 'compute').put(
            '/os-quota-sets/%s' % self.projects['A'], json={
                'quota_set': {'instances': -1, 'cores': -1, 'ram': -1}})
        assert resp.status_code == 200, resp.text
        server = self.server(task_state='rebooting')
        self.ids['server_id'] = server['server_id']
        self.ids['request_id'] = server['request_id']
        # A server with no task, whose metadata may change (k=v).
        self.ids['metadata_server_id'] = self.server()['server_id']
        # Key pairs are per user: one of project A's member.
        self.ids['keypair_user_id'] = self.user('mA')
        self.ids['keypair_name'] = self.keypair()['keypair_name']
        self.ids['share_id'] = str(uuid.uuid4())
        ctx = _admin()
        with session.COMPUTE.writing(ctx):
            ctx.session.add(models.ShareMapping(
                uuid=str(uuid.uuid4()), instance_uuid=server['server_id'],
                share_id=self.ids['share_id'], tag='pm',
                export_location='192.0.2.1:/pm', share_proto='NFS',
                status='inactive'))
        # A failed event of the create action, with what only
        # administrators see (details, traceback, host).
        event = db_actions.event_start(_admin(), server['server_id'],
                                       server['request_id'], 'pm_event',
                                       'pm-compute')
        db_actions.event_finish(_admin(), event, 'Error',
                                traceback='pm-traceback',
                                details='pm-details')
        db_bdms.create(_admin(), server['server_id'], db_bdms.new_values(
            self.ids['volume_id'], status='attached', device_name='/dev/sdb',
            source_type='volume', destination_type='volume'))
        self.ids['service_id'] = self.compute_service()['service_id']
        # Flavors: one with an extra spec (k=v), one private that another
        # project has access to.
        self.ids['flavor_extra_spec_key'] = 'k'
        self.ids['specs_flavor_id'] = self.specs_flavor()['flavor_id']
        self.ids['access_project_id'] = 'pm-o-' + self.tag
        self.ids['access_flavor_id'] = self.shared_flavor()['flavor_id']
        # A server group of project A's member; an aggregate, and a
        # compute host for its add_host and remove_host.
        self.ids['server_group_id'] = self.server_group()['server_group_id']
        self.ids['aggregate_host'] = self.compute_host()
        self.ids['aggregate_name'] = 'pm-agg-%s' % self.tag
        self.ids['aggregate_id'] = self.aggregate(
            self.ids['aggregate_name'])['aggregate_id']
        self.ids['tenant_id'] = self.projects['A']
        self.ids['alias'] = 'os-server-groups'
        resp = self.http('aA', 'compute').get('/os-hypervisors')
        assert resp.status_code == 200, resp.text
        self.ids['hypervisor_id'] = resp.json()['hypervisors'][0]['id']
        # A network no server is on (tether has none).
        self.ids['network_label'] = 'private'
        self.ids['hypervisor_hostname_pattern'] = resp.json()[
            'hypervisors'][0]['hypervisor_hostname']

    def user(self, column):
        return 'pm-%s-%s' % (column, self.tag)

    def a_ids(self):
        """Every ID of project A (or made for it) the matrix knows of."""
        values = [v for k, v in self.ids.items()
                  if k not in ('key', 'spec_key', 'flavor_id', 'image_id',
                               'flavor_extra_spec_key', 'specs_flavor_id',
                               'access_flavor_id', 'access_project_id',
                               'hypervisor_id', 'hypervisor_hostname_pattern',
                               'network_label', 'aggregate_id',
                               'aggregate_name', 'aggregate_host', 'alias',
                               'service_id', 'type_id', 'default_type_id',
                               'retype_type_id', 'bogus_type_id', 'qos_id',
                               'volume_host', 'host_name',
                               'group_type_id')]
        return set(values) | set(v for _c, v in self.volumes
                                 if _c == 'mA') | set(self.servers)

    # Makers: each returns the placeholders it fills ------------------------

    def volume(self):
        member = self.http('mA')
        volume = helpers.create_volume(member, size=1, wait_for=self.wait,
                                       name='pm-vol', metadata={'k': 'v'})
        self.volumes.append(('mA', volume['id']))
        return {'volume_id': volume['id']}

    def image_metadata_volume(self):
        """A volume of project A with image metadata k=v."""
        ids = self.volume()
        resp = self.http('mA').post(
            '/volumes/%s/action' % ids['volume_id'],
            json={'os-set_image_metadata': {'metadata': {'k': 'v'}}})
        assert resp.status_code == 200, resp.text
        return ids

    def project_image(self):
        """A private image of project A with the property k=v (and no
        other: made with the image API's own calls), 1 KiB of data."""
        glance = self.aio.sdk(self.user('mA'), self.projects['A'],
                              ['member']).image
        resp = glance.post('/images', json={
            'name': 'pm-image', 'disk_format': 'raw',
            'container_format': 'bare', 'k': 'v'})
        assert resp.status_code == 201, resp.text
        image_id = resp.json()['id']
        resp = glance.put('/images/%s/file' % image_id, data=b'\0' * 1024,
                          headers={'Content-Type':
                                   'application/octet-stream'})
        assert resp.status_code == 204, resp.text
        self.images.append(image_id)
        return {'image_id': image_id}

    def snapshot(self):
        """A snapshot (metadata k=v) of a new volume of project A."""
        member = self.http('mA')
        volume_id = self.volume()['volume_id']
        self.ids.setdefault('snapshot_volume_id', volume_id)
        resp = member.post('/snapshots', json={'snapshot': {
            'volume_id': volume_id, 'name': 'pm-snap',
            'metadata': {'k': 'v'}}})
        assert resp.status_code == 202, resp.text
        snapshot_id = resp.json()['snapshot']['id']
        self.wait(lambda: member.get('/snapshots/%s' % snapshot_id).json()
                  ['snapshot']['status'] == 'available',
                  what='snapshot %s available' % snapshot_id)
        return {'snapshot_id': snapshot_id}

    def transfer(self):
        """A transfer of a new volume of project A."""
        volume_id = self.volume()['volume_id']
        resp = self.http('mA').post('/volume-transfers', json={
            'transfer': {'volume_id': volume_id}})
        assert resp.status_code == 202, resp.text
        return {'transfer_id': resp.json()['transfer']['id']}

    def backup(self):
        """An available backup of a new volume of project A."""
        member = self.http('mA')
        volume_id = self.volume()['volume_id']
        resp = member.post('/backups', json={'backup': {
            'volume_id': volume_id, 'name': 'pm-backup'}})
        assert resp.status_code == 202, resp.text
        backup_id = resp.json()['backup']['id']
        self.wait(lambda: member.get('/backups/%s' % backup_id).json()
                  ['backup']['status'] == 'available', timeout=60,
                  what='backup %s available' % backup_id)
        return {'backup_id': backup_id}

    def _attachment(self, http, volume_id):
        resp = http.post('/attachments', json={'attachment': {
            'volume_uuid': volume_id, 'instance_uuid': str(uuid.uuid4())}})
        assert resp.status_code == 200, resp.text
        return resp.json()['attachment']['id']

    def attachment(self):
        volume_id = self.volume()['volume_id']
        return {'attachment_id': self._attachment(self.http('mA'),
                                                  volume_id)}

    def volume_type(self):
        admin = self.http('aA')
        resp = admin.post('/types', json={'volume_type': {
            'name': 'pm-%s-%s' % (self.tag, uuid.uuid4().hex[:6]),
            'description': 'pm'}})
        assert resp.status_code == 200, resp.text
        type_id = resp.json()['volume_type']['id']
        self.types.append(type_id)
        resp = admin.post('/types/%s/extra_specs' % type_id,
                          json={'extra_specs': {'multiattach': '<is> False'}})
        assert resp.status_code == 200, resp.text
        return {'type_id': type_id}

    def plain_type(self):
        admin = self.http('aA')
        resp = admin.post('/types', json={'volume_type': {
            'name': 'pm-r-%s-%s' % (self.tag, uuid.uuid4().hex[:6])}})
        assert resp.status_code == 200, resp.text
        self.types.append(resp.json()['volume_type']['id'])
        return {'type_id': resp.json()['volume_type']['id']}

    def qos_specs(self):
        """QoS specs with the key k=v."""
        resp = self.http('aA').post('/qos-specs', json={'qos_specs': {
            'name': 'pm-q-%s-%s' % (self.tag, uuid.uuid4().hex[:6]),
            'k': 'v'}})
        assert resp.status_code == 200, resp.text
        self.qos.append(resp.json()['qos_specs']['id'])
        return {'qos_id': resp.json()['qos_specs']['id']}

    def group_type(self):
        """A public group type with the spec k=v."""
        resp = self.http('aA').post('/group_types', json={'group_type': {
            'name': 'pm-g-%s-%s' % (self.tag, uuid.uuid4().hex[:6]),
            'group_specs': {'k': 'v'}}})
        assert resp.status_code == 202, resp.text
        self.group_types.append(resp.json()['group_type']['id'])
        return {'group_type_id': resp.json()['group_type']['id']}

    def group(self, with_volume=True):
        """An available group of project A (of the matrix's group type
        and project A's default volume type), with a volume in it."""
        member = self.http('mA')
        resp = member.post('/groups', json={'group': {
            'name': 'pm-group', 'group_type': self.ids['group_type_id'],
            'volume_types': [self.ids['default_type_id']]}})
        assert resp.status_code == 202, resp.text
        group_id = resp.json()['group']['id']
        self.groups.append(group_id)
        self.wait(lambda: member.get('/groups/%s' % group_id).json()
                  ['group']['status'] == 'available',
                  what='group %s available' % group_id)
        if with_volume:
            volume = helpers.create_volume(
                member, size=1, wait_for=self.wait, name='pm-gvol',
                group_id=group_id,
                volume_type=self.ids['default_type_id'])
            self.group_volumes.append(volume['id'])
        return {'group_id': group_id}

    def empty_group(self):
        return self.group(with_volume=False)

    def group_snapshot(self):
        """An available group snapshot of project A's group."""
        member = self.http('mA')
        resp = member.post('/group_snapshots', json={'group_snapshot': {
            'group_id': self.ids['group_id'], 'name': 'pm-gsnap'}})
        assert resp.status_code == 202, resp.text
        snapshot_id = resp.json()['group_snapshot']['id']
        self.wait(lambda: member.get('/group_snapshots/%s' % snapshot_id)
                  .json()['group_snapshot']['status'] == 'available',
                  what='group snapshot %s available' % snapshot_id)
        return {'group_snapshot_id': snapshot_id}

    def message(self):
        """A user message of project A: of a volume no backend holds."""
        if 'bogus_type_id' not in self.ids:
            resp = self.http('aA').post('/types', json={'volume_type': {
                'name': 'pm-b-%s-%s' % (self.tag, uuid.uuid4().hex[:6]),
                'extra_specs': {'vendor_name': 'nobody'}}})
            assert resp.status_code == 200, resp.text
            self.ids['bogus_type_id'] = resp.json()['volume_type']['id']
            self.types.append(self.ids['bogus_type_id'])
        member = self.http('mA')
        resp = member.post('/volumes', json={'volume': {
            'size': 1, 'volume_type': self.ids['bogus_type_id']}})
        assert resp.status_code == 202, resp.text
        volume_id = resp.json()['volume']['id']
        self.volumes.append(('mA', volume_id))
        resp = member.get('/messages?resource_uuid=%s' % volume_id)
        [message] = resp.json()['messages']
        return {'message_id': message['id']}

    def volume_service(self, frozen=False):
        """A volume service record of a host of its own."""
        host = 'pm-vol-%s@b' % uuid.uuid4().hex[:6]
        ctx = _admin()
        db_volume_services.register(ctx, host, 'tether-volume',
                                    'tether-volume', 'pm-zone-' + self.tag,
                                    '1.0', '1.0')
        if frozen:
            db_volume_services.set_frozen(ctx, host, 'tether-volume', True)
        self.volume_hosts.append(host)
        return {'volume_host': host}

    def frozen_volume_service(self):
        return self.volume_service(frozen=True)

    def private_type(self):
        """A private type that project A may use."""
        admin = self.http('aA')
        resp = admin.post('/types', json={'volume_type': {
            'name': 'pm-p-%s-%s' % (self.tag, uuid.uuid4().hex[:6]),
            'os-volume-type-access:is_public': False}})
        assert resp.status_code == 200, resp.text
        type_id = resp.json()['volume_type']['id']
        self.types.append(type_id)
        resp = admin.post('/types/%s/action' % type_id, json={
            'addProjectAccess': {'project': self.projects['A']}})
        assert resp.status_code == 202, resp.text
        return {'type_id': type_id}

    def default_type(self, project=None):
        """``project``'s default volume type set (a new project if not
        given: a throwaway default)."""
        project = project or 'pm-d-%s' % uuid.uuid4().hex[:8]
        self.default_projects.append(project)
        resp = self.http('aA').put('/default-types/%s' % project, json={
            'default_type': {'volume_type': self.ids['default_type_id']}})
        assert resp.status_code == 200, resp.text
        return {'target_project_id': project}

    def quota(self, project=None):
        """Room for the matrix's volumes and snapshots in ``project`` (a
        new one if not given: a throwaway quota)."""
        project = project or 'pm-q-%s' % uuid.uuid4().hex[:8]
        resp = self.http('aA').put('/os-quota-sets/%s' % project, json={
            'quota_set': {'volumes': 100, 'gigabytes': 1000,
                          'snapshots': 100, 'backups': 100}})
        assert resp.status_code == 200, resp.text
        return {'target_project_id': project}

    def server(self, task_state=None):
        ctx = t_context.RequestContext(user_id=self.user('mA'),
                                       project_id=self.projects['A'],
                                       roles=['member'])
        server_id = str(uuid.uuid4())
        flavor = {'id': '1', 'name': 'm1.nano', 'memory_mb': 64,
                  'vcpus': 1, 'root_gb': 0, 'ephemeral_gb': 0, 'swap': 0,
                  'extra_specs': {}}
        # Counted against project A's quota, as the API counts a server.
        instance_state.create_counted(ctx, {
            'uuid': server_id, 'project_id': ctx.project_id,
            'user_id': ctx.user_id, 'display_name': 'pm-srv',
            'hostname': 'pm-srv', 'availability_zone': 'nova',
            'flavor': flavor, 'memory_mb': 64, 'vcpus': 1,
            'vm_state': 'active', 'task_state': task_state,
            'power_state': 1, 'locked': False, 'metadata': {'k': 'v'},
            'deleted': False}, [], [],
            db_actions.action_values(ctx, server_id, 'create'))
        self.servers.append(server_id)
        return {'server_id': server_id, 'request_id': ctx.request_id}

    def keypair(self):
        name = 'pm-kp-%s' % uuid.uuid4().hex[:8]
        resp = self.http('mA', 'compute').post('/os-keypairs', json={
            'keypair': {'name': name, 'public_key': PUBLIC_KEY}})
        assert resp.status_code == 201, resp.text
        return {'keypair_name': name}

    def flavor(self, public=True):
        resp = self.http('aA', 'compute').post('/flavors', json={'flavor': {
            'name': 'pm-%s' % uuid.uuid4().hex[:8], 'ram': 64, 'vcpus': 1,
            'disk': 1, 'os-flavor-access:is_public': public}})
        assert resp.status_code == 200, resp.text
        flavor_id = resp.json()['flavor']['id']
        self.flavors.append(flavor_id)
        return {'flavor_id': flavor_id}

    def specs_flavor(self):
        """A flavor with the extra spec k=v."""
        made = self.flavor()
        resp = self.http('aA', 'compute').post(
            '/flavors/%s/os-extra_specs' % made['flavor_id'],
            json={'extra_specs': {'k': 'v'}})
        assert resp.status_code == 200, resp.text
        return made

    def private_flavor(self):
        return self.flavor(public=False)

    def shared_flavor(self):
        """A private flavor that ``access_project_id`` has access to."""
        made = self.flavor(public=False)
        resp = self.http('aA', 'compute').post(
            '/flavors/%s/action' % made['flavor_id'], json={
                'addTenantAccess': {'tenant': self.ids['access_project_id']}})
        assert resp.status_code == 200, resp.text
        return made

    def compute_service(self):
        host = 'pm-host-%s' % uuid.uuid4().hex[:8]
        row = db_services.register(_admin(), host, 'tether-compute',
                                   'tether-compute', None, 1, '1.0',
                                   hypervisor_hostname=host)
        self.services.append(row.id)
        return {'service_id': row.uuid}

    def server_group(self):
        resp = self.http('mA', 'compute').post('/os-server-groups', json={
            'server_group': {'name': 'pm-sg', 'policy': 'affinity'}})
        assert resp.status_code == 200, resp.text
        return {'server_group_id': resp.json()['server_group']['id']}

    def compute_host(self):
        """The host name of a new compute service record."""
        host = 'pm-host-%s' % uuid.uuid4().hex[:8]
        row = db_services.register(_admin(), host, 'tether-compute',
                                   'tether-compute', None, 1, '1.0',
                                   hypervisor_hostname=host)
        self.services.append(row.id)
        return host

    def aggregate(self, name=None):
        resp = self.http('aA', 'compute').post('/os-aggregates', json={
            'aggregate': {'name': name or 'pm-agg-%s-%s' % (
                self.tag, uuid.uuid4().hex[:6])}})
        assert resp.status_code == 200, resp.text
        return {'aggregate_id': str(resp.json()['aggregate']['id'])}

    def aggregate_with_host(self):
        made = self.aggregate()
        resp = self.http('aA', 'compute').post(
            '/os-aggregates/%s/action' % made['aggregate_id'],
            json={'add_host': {'host': self.ids['aggregate_host']}})
        assert resp.status_code == 200, resp.text
        return made

    # What is left afterwards ------------------------------------------------

    def _groups(self):
        """Every group of project A (the world's, the rows')."""
        resp = self.http('aA').get('/groups/detail?all_tenants=1')
        return [g['id'] for g in resp.json().get('groups', [])
                if g.get('project_id') == self.projects['A']]

    def cleanup(self, created):
        """Remove what the matrix made (``created``: (api, kind, id) of
        what allowed calls created)."""
        admin, cadmin = self.http('aA'), self.http('aA', 'compute')
        glance = self.aio.admin().image
        glance.delete_image(self.image.id)
        for image_id in self.images:
            glance.delete('/images/%s' % image_id)
        # The transfers of project A's volumes first: an offered volume
        # is not deleted.
        resp = admin.get('/volume-transfers?all_tenants=1&project_id=%s'
                         % self.projects['A'])
        for transfer in resp.json().get('transfers', []):
            admin.delete('/volume-transfers/%s' % transfer['id'])
        # The group snapshots and groups of project A (with their
        # volumes: a volume of a group is not deleted alone), then the
        # group types.
        groups = self._groups()
        resp = admin.get('/group_snapshots/detail?all_tenants=1')
        for snapshot in resp.json().get('group_snapshots', []):
            if snapshot['group_id'] in groups:
                admin.delete('/group_snapshots/%s' % snapshot['id'])
        for group_id in groups:
            self.wait(lambda: not any(
                s['group_id'] == group_id for s in admin.get(
                    '/group_snapshots/detail?all_tenants=1').json()
                ['group_snapshots']),
                what='group snapshots of %s gone' % group_id)
            admin.post('/groups/%s/action' % group_id, json={
                'reset_status': {'status': 'available'}})
            admin.post('/groups/%s/action' % group_id, json={
                'delete': {'delete-volumes': True}})
        for group_id in groups:
            self.wait(lambda: admin.get('/groups/%s' % group_id)
                      .status_code == 404, what='group %s gone' % group_id)
        for type_id in self.group_types + [i for _a, k, i in created
                                           if k == 'group_type']:
            admin.delete('/group_types/%s' % type_id)
        # The backups of project A (they outlive their volumes).
        resp = admin.get('/backups?all_tenants=1&project_id=%s'
                         % self.projects['A'])
        for backup in resp.json().get('backups', []):
            admin.post('/backups/%s/action' % backup['id'],
                       json={'os-force_delete': {}})
        volumes = [v for _c, v in self.volumes] + [
            i for api, kind, i in created if kind == 'volume']
        for volume_id in volumes:
            self.wait(lambda: admin.get('/volumes/%s' % volume_id).json()
                      .get('volume', {}).get('status') not in (
                          'creating', 'extending', 'reserved', 'attaching',
                          'deleting', 'in-use') or
                      _free(admin, volume_id), what='volume settled')
            # With its snapshots (and those the matrix took).
            admin.delete('/volumes/%s?cascade=true' % volume_id)
        for project in self.default_projects:
            admin.delete('/default-types/%s' % project)
        for qos_id in self.qos + [i for _a, k, i in created
                                  if k == 'qos_specs']:
            admin.delete('/qos-specs/%s?force=true' % qos_id)
        for type_id in self.types + [i for _a, k, i in created
                                     if k == 'type']:
            admin.delete('/types/%s' % type_id)
        ctx = _admin()
        with session.VOLUME.writing(ctx):
            ctx.session.execute(sa.delete(volume_models.Service).where(
                volume_models.Service.host.in_(self.volume_hosts)))
        for flavor_id in self.flavors + [i for _a, k, i in created
                                         if k == 'flavor']:
            cadmin.delete('/flavors/%s' % flavor_id)
        # Every persona's key pairs (each may create its own).
        for column in table.COLUMNS:
            query = '?user_id=' + self.user(column)
            resp = cadmin.get('/os-keypairs' + query)
            for keypair in resp.json().get('keypairs', []):
                cadmin.delete('/os-keypairs/%s%s'
                              % (keypair['keypair']['name'], query))
        resp = cadmin.get('/os-server-groups?all_projects=1')
        for group in resp.json().get('server_groups', []):
            if group['project_id'] in self.projects.values():
                cadmin.delete('/os-server-groups/%s' % group['id'])
        ctx = _admin()
        with session.COMPUTE.writing(ctx):
            aggregates = sa.select(models.Aggregate.id).where(
                models.Aggregate.name.like('pm-agg-%s%%' % self.tag))
            for model in (models.AggregateHost, models.AggregateMetadata):
                ctx.session.execute(sa.delete(model).where(
                    model.aggregate_id.in_(aggregates)))
            ctx.session.execute(sa.delete(models.Aggregate).where(
                models.Aggregate.id.in_(aggregates)))
            ids = sa.select(models.InstanceAction.id).where(
                models.InstanceAction.instance_uuid.in_(self.servers))
            for model, column in (
                    (models.InstanceActionEvent,
                     models.InstanceActionEvent.action_id.in_(ids)),
                    (models.InstanceAction,
                     models.InstanceAction.instance_uuid.in_(self.servers)),
                    (models.ShareMapping,
                     models.ShareMapping.instance_uuid.in_(self.servers)),
                    (models.BlockDeviceMapping,
                     models.BlockDeviceMapping.instance_uuid.in_(
                         self.servers)),
                    (models.Instance,
                     models.Instance.uuid.in_(self.servers)),
                    (models.ComputeService,
                     models.ComputeService.id.in_(self.services))):
                ctx.session.execute(sa.delete(model).where(column))


def _free(admin, volume_id):
    """Detach whatever holds the volume, so that it can be deleted."""
    resp = admin.get('/attachments?all_tenants=1&volume_id=%s' % volume_id)
    for attachment in resp.json().get('attachments', []):
        admin.delete('/attachments/%s' % attachment['id'])
    return True
