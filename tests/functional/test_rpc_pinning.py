"""Rolling upgrades over real RPC: the clients of a pinned API send what a
manager of the older release reads.

A manager of the release before attachments (tether-volume RPC 1.0,
Volume 1.0) is played by an RPC server on the aio's transport (kombu's
in-memory broker) whose endpoint serves only 1.0 and records what
arrives as it arrived on the wire; the pins come from ``[upgrade_levels]``
and from the aio's real services tables.
"""

import datetime
import logging
import threading
import uuid

import oslo_messaging as messaging
from oslo_config import cfg
import pytest
import sqlalchemy as sa

from tests.functional import helpers
from tether.compute import rpcapi as compute_rpcapi
from tether.compute import version as compute_version
from tether.db.compute import service as db_compute_services
from tether.db import base
from tether.db.volume import models
from tether.db.volume import service as db_services
from tether.db import session as db_session
from tether.db.volume import volume_type as volume_types
from tether import exception
from tether.objects.compute import instance as instance_obj
from tether.objects.volume import volume as volume_obj
from tether import rpc
from tether.volume import rpcapi as volume_rpcapi

CONF = cfg.CONF


class _Recorder(rpc.RequestContextSerializer):
    """The servers' serializer, keeping each argument as it arrived."""

    def __init__(self):
        super().__init__()
        self.wire = []

    def deserialize_entity(self, ctxt, entity):
        self.wire.append(entity)
        return super().deserialize_entity(ctxt, entity)


class OldVolumeManager:
    """The RPC API of a tether-volume of the release before attachments."""

    target = messaging.Target(version='1.0')

    def __init__(self):
        self.received = []
        self.arrived = threading.Event()

    def _got(self, method, volume):
        self.received.append((method, volume))
        self.arrived.set()

    def create_volume(self, context, volume):
        self._got('create_volume', volume)

    def delete_volume(self, context, volume):
        self._got('delete_volume', volume)

    def extend_volume(self, context, volume, new_size, reservations):
        self._got('extend_volume', volume)


class OldComputeManager:
    target = messaging.Target(version='1.0')

    def __init__(self):
        self.received = []
        self.arrived = threading.Event()

    def start_instance(self, context, instance):
        self.received.append(('start_instance', instance))
        self.arrived.set()


def _serve(topic, host, endpoint):
    recorder = _Recorder()
    server = messaging.get_rpc_server(rpc.TRANSPORT, messaging.Target(
        topic=topic, server=host), [endpoint], executor='threading',
        serializer=recorder)
    server.start()
    return server, recorder


@pytest.fixture
def old_volume_backend(aio):
    """(host@backend, endpoint, recorder) of an old tether-volume."""
    host = 'old-%s@old' % uuid.uuid4().hex[:6]
    endpoint = OldVolumeManager()
    server, recorder = _serve(volume_rpcapi.TOPIC, host, endpoint)
    yield host, endpoint, recorder
    server.stop()
    server.wait()


@pytest.fixture
def old_volume_record(aio):
    """An old tether-volume (RPC 1.0) in the aio's services table, down
    (no backend is scheduled there); removed afterwards."""
    host = 'old-%s@old' % uuid.uuid4().hex[:6]
    ctx = helpers.admin_context()
    service_id = db_services.register(ctx, host, 'tether-volume',
                                      'tether-volume', 'nova', '1.0', '1.0')
    old = base.now() - datetime.timedelta(days=1)
    engine = db_session.VOLUME.get_engine()
    with engine.begin() as conn:
        conn.execute(sa.update(models.Service)
                     .where(models.Service.id == service_id)
                     .values(heartbeat_at=old))
    yield host
    with engine.begin() as conn:
        conn.execute(sa.delete(models.Service)
                     .where(models.Service.id == service_id))


def _volume(host):
    ctx = helpers.admin_context()
    volume = volume_obj.Volume.from_trusted_values({
        'id': str(uuid.uuid4()), 'project_id': 'p', 'size': 1,
        'host': host + '#pool', 'status': 'creating',
        'attach_status': 'detached', 'bootable': False,
        'multiattach': False, 'metadata': {}, 'admin_metadata': {},
        'volume_type_id': volume_types.get_by_name_or_id(
            ctx, '__DEFAULT__').id,
        'attachments': []})
    return ctx, volume


def _arrived(endpoint):
    assert endpoint.arrived.wait(30), 'nothing arrived'
    return endpoint.received[-1]


def _primitive(recorder, name):
    (found,) = [e for e in recorder.wire
                if isinstance(e, dict) and
                e.get('tether_object.name') == name]
    return found


def test_a_client_pinned_to_1_0_sends_volume_1_0(old_volume_backend,
                                                 levels):
    host, endpoint, recorder = old_volume_backend
    levels('volume', '1.0')
    client = volume_rpcapi.VolumeAPI()
    ctx, volume = _volume(host)
    client.create_volume(ctx, volume)
    method, received = _arrived(endpoint)
    assert method == 'create_volume'
    wire = _primitive(recorder, 'Volume')
    assert wire['tether_object.version'] == '1.0'
    assert 'attachments' not in wire['tether_object.data']
    assert received.id == volume.id
    assert not received.obj_attr_is_set('attachments')
    # What an old manager does not have is not sent at all.
    with pytest.raises(exception.ServiceTooOld):
        client.attachment_update(ctx, volume, {'host': 'h'},
                                 str(uuid.uuid4()))
    assert len(endpoint.received) == 1


def test_unpinned_the_old_manager_gets_what_it_cannot_read(
        old_volume_backend, levels):
    host, endpoint, recorder = old_volume_backend
    client = volume_rpcapi.VolumeAPI()
    assert client.client.version_cap is None
    ctx, volume = _volume(host)
    client.create_volume(ctx, volume)
    _arrived(endpoint)
    # The newest Volume: a Volume 1.0 registry cannot load it.
    assert _primitive(recorder, 'Volume')['tether_object.version'] == \
        volume_obj.Volume.VERSION != '1.0'
    # And a method it does not have is refused by its RPC server.
    with pytest.raises(messaging.RemoteError) as raised:
        client.attachment_update(ctx, volume, {'host': 'h'},
                                 str(uuid.uuid4()))
    assert raised.value.exc_type == 'UnsupportedVersion'


def test_auto_pins_to_the_oldest_volume_service(
        aio, wait, old_volume_backend, old_volume_record, levels,
        monkeypatch, caplog):
    """The aio's tether-volume (1.2) and an old one (1.0) are
    registered: auto pins the volume API to 1.0; the real manager serves
    the pinned API (Volume 1.0), the old one reads what it gets, and
    connecting an attachment is refused with the pin named."""
    host, endpoint, recorder = old_volume_backend
    levels('volume', 'auto')
    # The API process's client is made again, as after a restart.
    monkeypatch.setattr(volume_rpcapi, '_client', None)
    with caplog.at_level(logging.INFO, logger='tether.rpc'):
        client = volume_rpcapi.get()
    assert client.client.version_cap == '1.0'
    assert client.pin.objects == {'Volume': '1.0'}
    assert ('Automatically selected tether-volume RPC version 1.0 from '
            'minimum service version 1.0 (%s)' % old_volume_record
            ) in caplog.text

    ctx, volume = _volume(host)
    client.create_volume(ctx, volume)
    _arrived(endpoint)
    assert _primitive(recorder, 'Volume')['tether_object.version'] == '1.0'

    http = aio.http(version='3.54')
    created = helpers.create_volume(http, wait_for=wait)
    assert created['status'] == 'available'
    resp = http.post('/attachments', json={'attachment': {
        'volume_uuid': created['id'], 'instance_uuid': str(uuid.uuid4()),
        'connector': {'host': 'pinned-host', 'mountpoint': '/dev/vdb'}}})
    assert resp.status_code == 409, resp.text
    (fault,) = resp.json().values()
    assert ('connecting an attachment needs tether-volume RPC version 1.1; '
            '[upgrade_levels] volume holds the API at 1.0') in fault['message']
    # Refused before anything changed: no attachment, the volume as it was.
    listed = http.get('/attachments?volume_id=%s' % created['id'])
    assert listed.json()['attachments'] == []
    volume = http.get('/volumes/%s' % created['id']).json()['volume']
    assert (volume['status'], volume['attachments']) == ('available', [])

    # The same for a reserved attachment given its connector later, and
    # for the delete of one that is connected: both stay as they were.
    pinned = volume_rpcapi._client
    levels('volume', None)
    rpc.reset_version_pins()
    monkeypatch.setattr(volume_rpcapi, '_client', None)
    assert volume_rpcapi.get().client.version_cap is None
    attachment = http.post('/attachments', json={'attachment': {
        'volume_uuid': created['id'],
        'instance_uuid': str(uuid.uuid4())}}).json()['attachment']
    connected = http.post('/attachments', json={'attachment': {
        'volume_uuid': helpers.create_volume(http, wait_for=wait)['id'],
        'instance_uuid': str(uuid.uuid4()),
        'connector': {'host': 'pinned-host'}}}).json()['attachment']
    monkeypatch.setattr(volume_rpcapi, '_client', pinned)
    resp = http.put('/attachments/%s' % attachment['id'], json={
        'attachment': {'connector': {'host': 'pinned-host'}}})
    assert resp.status_code == 409, resp.text
    assert 'connecting an attachment needs' in resp.text
    shown = http.get('/attachments/%s' % attachment['id']).json()
    assert shown['attachment']['status'] == 'reserved'
    resp = http.delete('/attachments/%s' % connected['id'])
    assert resp.status_code == 409, resp.text
    assert 'disconnecting an attachment needs' in resp.text
    shown = http.get('/attachments/%s' % connected['id']).json()
    assert shown['attachment']['status'] == 'attaching'


def test_a_volume_api_pinned_below_1_2_makes_no_volume_of_an_image(
        aio, old_volume_backend, levels, monkeypatch):
    """Managers of 1.1 would make an empty volume of one that names an
    image: the API refuses before it asks the image API or counts quota,
    and sends a plain create as before, without the image metadata."""
    host, endpoint, recorder = old_volume_backend
    levels('volume', '1.1')
    monkeypatch.setattr(volume_rpcapi, '_client', None)
    http = aio.http(version='3.71')
    resp = http.post('/volumes', json={'volume': {
        'size': 1, 'imageRef': str(uuid.uuid4())}})
    assert resp.status_code == 409, resp.text
    assert ('creating a volume from an image needs tether-volume RPC '
            'version 1.2; [upgrade_levels] volume holds the API at 1.1'
            ) in resp.json()['conflictingRequest']['message']
    assert helpers.project_volumes(http.project) == []
    assert helpers.usage(http.project) == {'volumes': (0, 0),
                                           'gigabytes': (0, 0)}

    ctx, volume = _volume(host)
    volume_rpcapi.get().create_volume(ctx, volume)
    _arrived(endpoint)
    wire = _primitive(recorder, 'Volume')
    assert wire['tether_object.version'] == '1.1'
    assert 'image_metadata' not in wire['tether_object.data']


@pytest.mark.parametrize('action,body', [
    ('os-volume_upload_image', {'image_name': 'pinned'}),
    ('os-reimage', {'image_id': '7e3b8f52-0c55-4c5e-9d3e-2f3c9a1e6b0a'}),
], ids=['upload', 'reimage'])
def test_a_volume_api_pinned_below_1_3_has_no_image_actions(
        aio, wait, levels, monkeypatch, action, body):
    """Managers of 1.2 know neither action: refused with a 409 before the
    volume is claimed, an image created or the image API asked."""
    http = aio.http(version='3.71')
    volume = helpers.create_volume(http, wait_for=wait)
    levels('volume', '1.2')
    monkeypatch.setattr(volume_rpcapi, '_client', None)
    resp = http.post('/volumes/%s/action' % volume['id'],
                     json={action: body})
    assert resp.status_code == 409, resp.text
    fault = resp.json()['conflictingRequest']
    assert fault['error_code'] == 'tether.rpc.version_pinned'
    assert ('needs tether-volume RPC version 1.3; [upgrade_levels] volume '
            'holds the API at 1.2') in fault['message']
    after = helpers.db_volume(volume['id'])
    assert (after.status, after.previous_status, after.admin_metadata) == (
        'available', None, {'format': 'raw'})
    images = aio.sdk(http.user, http.project).image.images(
        owner=http.project)
    assert list(images) == []


@pytest.fixture
def old_compute_host(aio):
    """An old tether-compute (service version 1): its RPC server and its
    record, down; both removed afterwards."""
    host = 'old-compute-%s' % uuid.uuid4().hex[:6]
    endpoint = OldComputeManager()
    server, recorder = _serve(compute_rpcapi.TOPIC, host, endpoint)
    ctx = helpers.admin_context()
    record = db_compute_services.register(
        ctx, host, 'tether-compute', 'tether-compute', 'nova', 1, '1.0')
    db_compute_services.update(ctx, record.id, {
        'heartbeat_at': base.now() - datetime.timedelta(days=1)})
    yield host, endpoint, recorder
    server.stop()
    server.wait()
    db_compute_services.destroy(ctx, record.id)


def test_auto_pins_to_the_oldest_compute_service(old_compute_host, levels,
                                                 monkeypatch, caplog):
    host, endpoint, recorder = old_compute_host
    levels('compute', 'auto')
    monkeypatch.setattr(compute_rpcapi, '_client', None)
    with caplog.at_level(logging.INFO, logger='tether.rpc'):
        client = compute_rpcapi.get()
    rpc_version = compute_version.rpc_version_of(1)
    assert client.client.version_cap == rpc_version
    assert client.pin.objects == (
        compute_version.RPC_OBJECT_VERSIONS[rpc_version])
    assert ('Automatically selected tether-compute RPC version %s from '
            'minimum service version 1 (%s)' % (rpc_version, host)
            ) in caplog.text
    instance = instance_obj.Instance(
        uuid=str(uuid.uuid4()), project_id='p', user_id='u', host=host,
        vm_state='stopped', task_state='powering-on')
    client.start_instance(helpers.admin_context(), instance)
    method, received = _arrived(endpoint)
    assert (method, received.uuid) == ('start_instance', instance.uuid)
    assert _primitive(recorder, 'Instance')['tether_object.version'] == (
        client.pin.objects['Instance'])
