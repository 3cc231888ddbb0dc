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
from tether import context as t_context
from tether.db.compute import block_device_mapping as db_bdms
from tether.db.compute import instance_action as db_actions
from tether.db.compute import instance as db_instances
from tether.db.compute import models
from tether.db.compute import service as db_services
from tether.db import session
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
                    'flavor_id': '1'}
        self.volumes, self.types, self.servers = [], [], []
        self.flavors, self.services, self.images = [], [], []
        # (api, kind, id) of what the allowed calls created.
        self.created = []

    def http(self, column, api='volume'):
        return self.clients[column][api]

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
        self.ids['type_id'] = self.volume_type()['type_id']
        self.ids['private_type_id'] = self.private_type()['type_id']
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
                               'network_label',
                               'service_id', 'type_id')]
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

    def quota(self, project=None):
        """Room for the matrix's volumes and snapshots in ``project`` (a
        new one if not given: a throwaway quota)."""
        project = project or 'pm-q-%s' % uuid.uuid4().hex[:8]
        resp = self.http('aA').put('/os-quota-sets/%s' % project, json={
            'quota_set': {'volumes': 100, 'gigabytes': 1000,
                          'snapshots': 100}})
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
        db_instances.create_on_host(ctx, {
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

    # What is left afterwards ------------------------------------------------

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
        for type_id in self.types + [i for _a, k, i in created
                                     if k == 'type']:
            admin.delete('/types/%s' % type_id)
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
        ctx = _admin()
        with session.COMPUTE.writing(ctx):
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
