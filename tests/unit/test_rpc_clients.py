"""The RPC clients at a pinned version: what they refuse to send to
managers too old for it, and what they send to the others."""

import uuid

import oslo_messaging as messaging
from oslo_config import cfg
import pytest

from tether.compute import rpcapi as compute_rpcapi
from tether.compute import version as compute_version
from tether import context as t_context
from tether import exception
from tether import rpc
from tether.volume import rpcapi as volume_rpcapi
from tests.unit.rpc_samples import Row, sample_instance, sample_volume

CONF = cfg.CONF


def test_a_pinned_compute_client_refuses_a_rebuild(levels, transport):
    levels('compute', '1.2')
    client = compute_rpcapi.ComputeAPI()
    ctxt = t_context.get_admin_context()
    with pytest.raises(exception.ServiceTooOld, match='rebuild needs '
                       'tether-compute RPC version 1.3'):
        client.check_rebuild_calls('rebuild')
    with pytest.raises(exception.ServiceTooOld):
        client.rebuild_instance(ctxt, sample_instance(), str(uuid.uuid4()),
                                True)
    with pytest.raises(exception.ServiceTooOld, match='the volume-reimaged '
                       'event needs'):
        client.external_instance_event(ctxt, sample_instance(),
                                       'volume-reimaged', str(uuid.uuid4()),
                                       'completed')


# The clients --------------------------------------------------------------

@pytest.fixture
def transport(monkeypatch):
    transport = messaging.get_rpc_transport(CONF, url='fake:///')
    monkeypatch.setattr(rpc, 'TRANSPORT', transport)
    yield transport
    transport.cleanup()


def test_a_pinned_volume_client_refuses_what_old_managers_lack(
        levels, transport):
    levels('volume', '1.0')
    client = volume_rpcapi.VolumeAPI()
    assert client.client.version_cap == '1.0'
    assert not client.client.can_send_version('1.1')
    ctxt = t_context.get_admin_context()
    with pytest.raises(exception.ServiceTooOld) as raised:
        client.attachment_update(ctxt, sample_volume(0), {'host': 'h'},
                                 str(uuid.uuid4()))
    assert str(raised.value) == (
        'connecting an attachment needs tether-volume RPC version 1.1; '
        '[upgrade_levels] volume holds the API at 1.0 while a rolling '
        'upgrade of tether-volume is not finished')
    with pytest.raises(exception.ServiceTooOld):
        client.attachment_delete(ctxt, sample_volume(0), str(uuid.uuid4()))


@pytest.mark.parametrize('level', ['1.0', '1.2'])
def test_a_volume_client_pinned_below_1_3_refuses_the_image_actions(
        levels, transport, level):
    levels('volume', level)
    client = volume_rpcapi.VolumeAPI()
    ctxt = t_context.get_admin_context()
    with pytest.raises(exception.ServiceTooOld) as raised:
        client.check_image_actions('re-imaging a volume')
    assert str(raised.value) == (
        're-imaging a volume needs tether-volume RPC version 1.3; '
        '[upgrade_levels] volume holds the API at %s while a rolling '
        'upgrade of tether-volume is not finished' % level)
    with pytest.raises(exception.ServiceTooOld, match='uploading a volume'):
        client.copy_volume_to_image(ctxt, sample_volume(0), {'id': 'x'})
    with pytest.raises(exception.ServiceTooOld, match='re-imaging'):
        client.reimage(ctxt, sample_volume(0), str(uuid.uuid4()))


def test_a_pinned_compute_client_refuses_console_output(levels, transport):
    levels('compute', '1.0')
    client = compute_rpcapi.ComputeAPI()
    assert client.client.version_cap == '1.0'
    with pytest.raises(exception.ServiceTooOld) as raised:
        client.get_console_output(t_context.get_admin_context(),
                                  sample_instance(), 10)
    assert str(raised.value) == (
        'console output needs tether-compute RPC version 1.1; '
        '[upgrade_levels] compute holds the API at 1.0 while a rolling '
        'upgrade of tether-compute is not finished')


@pytest.mark.parametrize('level', ['1.0', '1.1'])
def test_a_pinned_compute_client_refuses_builds_from_images(levels,
                                                            transport,
                                                            level):
    levels('compute', level)
    client = compute_rpcapi.ComputeAPI()
    with pytest.raises(exception.ServiceTooOld) as raised:
        client.check_image_builds()
    assert str(raised.value) == (
        'a server from an image needs tether-compute RPC version 1.2; '
        '[upgrade_levels] compute holds the API at %s while a rolling '
        'upgrade of tether-compute is not finished' % level)
    levels('compute', '1.2')
    compute_rpcapi.ComputeAPI().check_image_builds()


def test_auto_pins_compute_to_its_oldest_host(levels, transport,
                                              monkeypatch):
    levels('compute', 'auto')
    monkeypatch.setattr(compute_rpcapi.db_services, 'get_all',
                        lambda context, binary=None, host=None: [
                            Row('new', version=3), Row('old', version=2)])
    client = compute_rpcapi.ComputeAPI()
    assert client.client.version_cap == '1.0'
    assert not client.client.can_send_version('1.1')
    rpc.reset_version_pins()
    monkeypatch.setattr(compute_rpcapi.db_services, 'get_all',
                        lambda context, binary=None, host=None: [
                            Row('new', version=3)])
    client = compute_rpcapi.ComputeAPI()
    assert client.client.can_send_version('1.1')


def test_clients_are_made_again_while_auto_finds_no_service(
        levels, transport, monkeypatch):
    levels('compute', 'auto')
    monkeypatch.setattr(compute_rpcapi, '_client', None)
    rows = []
    monkeypatch.setattr(compute_rpcapi.db_services, 'get_all',
                        lambda context, binary=None, host=None: rows)
    first = compute_rpcapi.get()
    assert not first.pin.final
    rows.append(Row('h1', version=compute_version.SERVICE_VERSION))
    second = compute_rpcapi.get()
    assert second is not first and second.pin.final
    assert compute_rpcapi.get() is second
    assert second.client.version_cap == compute_version.RPC_API_VERSION


class _Casts:
    """Stands in for the RPC client's prepare(): records each cast (the
    version it was prepared at, the method, its arguments' names)."""

    def __init__(self, client):
        self.prepare, self.sent = client.prepare, []

    def __call__(self, server=None, version=None):
        prepared = self.prepare(server=server, version=version)
        sent = self.sent

        class _Prepared:
            def can_send_version(self):
                return prepared.can_send_version()

            def cast(self, ctxt, method, **kwargs):
                assert prepared.can_send_version()
                sent.append((version, method, sorted(kwargs)))
        return _Prepared()


@pytest.mark.parametrize('level,version,names', [
    ('1.3', '1.3', ['image_id', 'volume']),
    ('1.4', '1.4', ['image', 'image_id', 'volume']),
])
def test_the_image_the_api_read_goes_to_managers_that_take_it(
        levels, transport, monkeypatch, level, version, names):
    levels('volume', level)
    client = volume_rpcapi.VolumeAPI()
    casts = _Casts(client.client)
    monkeypatch.setattr(client.client, 'prepare', casts)
    ctxt = t_context.get_admin_context()
    volume = sample_volume(0)
    image = {'id': str(uuid.uuid4()), 'disk_format': 'raw'}
    client.reimage(ctxt, volume, image['id'], image=image)
    volume.image_metadata = {'image_id': image['id']}
    client.create_volume(ctxt, volume, image=image)
    # Without an image (a create with none), nothing new is asked for.
    client.create_volume(ctxt, sample_volume(0))
    create_version = '1.2' if version == '1.3' else version
    assert casts.sent == [
        (version, 'reimage', names),
        (create_version, 'create_volume',
         sorted(set(names) - {'image_id'})),
        ('1.0', 'create_volume', ['volume']),
    ]


@pytest.mark.parametrize('level,version,names', [
    ('1.4', '1.3', ['image_id', 'instance', 'reimage_boot_volume']),
    ('1.5', '1.5', ['image', 'image_id', 'instance',
                    'reimage_boot_volume']),
])
def test_a_rebuild_carries_the_image_to_hosts_that_take_it(
        levels, transport, monkeypatch, level, version, names):
    levels('compute', level)
    client = compute_rpcapi.ComputeAPI()
    casts = _Casts(client.client)
    monkeypatch.setattr(client.client, 'prepare', casts)
    image = {'id': str(uuid.uuid4()), 'disk_format': 'raw'}
    client.rebuild_instance(t_context.get_admin_context(),
                            sample_instance(), image['id'], True,
                            image=image)
    assert casts.sent == [(version, 'rebuild_instance', names)]


@pytest.mark.parametrize('level,can', [('1.10', False), ('1.11', True)])
def test_the_size_of_a_waiting_extend_goes_to_hosts_that_take_it(
        levels, transport, monkeypatch, level, can):
    levels('compute', level)
    client = compute_rpcapi.ComputeAPI()
    casts = _Casts(client.client)
    monkeypatch.setattr(client.client, 'prepare', casts)
    # The compute API asks first, and sends no size below 1.11.
    assert client.can_send_extend_size() is can
    ctxt = t_context.get_admin_context()
    volume_id = str(uuid.uuid4())
    client.extend_volume(ctxt, sample_instance(), volume_id,
                         new_size=2 if can else None)
    assert casts.sent == [
        ('1.11', 'extend_volume', ['instance', 'new_size', 'volume_id'])
        if can else ('1.0', 'extend_volume', ['instance', 'volume_id'])]
