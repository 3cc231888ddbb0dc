"""RPC version pins of rolling upgrades: the cap each client chooses
([upgrade_levels]), the object versions it implies, what the serializer
sends at a pin, and the version histories those rest on."""

import logging
import uuid

from oslo_config import cfg
from oslo_versionedobjects import fixture as ovo_fixture
import pytest

from tether.compute import rpcapi as compute_rpcapi
from tether.compute import version as compute_version
from tether.objects import compute as compute_objects
from tether.objects import volume as volume_objects
from tether.objects import base as objects_base
from tether.objects.compute import instance as instance_obj
from tether import rpc
from tether.volume import rpcapi as volume_rpcapi
from tether.volume.backup import version as backup_version
from tether.volume import version as volume_version
from tests.unit.rpc_samples import Row, sample_volume

CONF = cfg.CONF
VOLUME_HISTORY = volume_version.RPC_OBJECT_VERSIONS
NEWEST_VOLUME = volume_version.RPC_API_VERSION

volume_objects.register_all()
compute_objects.register_all()


class Services:
    """``oldest_service`` of an rpcapi module over a list of records:
    counts how often the services table is read."""

    def __init__(self, *found):
        self.found = list(found)
        self.reads = 0

    def __call__(self):
        self.reads += 1
        return self.found[0] if self.found else None


def _volume_pin(oldest):
    return rpc.version_pin('volume', 'tether-volume', VOLUME_HISTORY, oldest)


# The version cap ----------------------------------------------------------

def test_unset_sends_the_newest_versions(levels):
    services = Services(('1.0', '1.0 (old@b)'))
    pin = _volume_pin(services)
    assert pin == rpc.VersionPin(rpc=None, objects=None)
    assert services.reads == 0


def test_an_explicit_version_pins_it_and_its_objects(levels):
    levels('volume', '1.0')
    services = Services(('1.1', '1.1 (new@b)'))
    pin = _volume_pin(services)
    assert (pin.rpc, pin.objects, pin.final) == ('1.0', {'Volume': '1.0'},
                                                 True)
    assert services.reads == 0


def test_an_explicit_version_newer_than_this_code_caps_objects(levels):
    # A cap above what this code speaks changes nothing it sends.
    levels('volume', '1.9')
    pin = _volume_pin(Services())
    assert pin.rpc == '1.9'
    assert pin.objects == VOLUME_HISTORY[NEWEST_VOLUME]


@pytest.mark.parametrize('value', ['0.9', '2.0'])
def test_an_explicit_version_this_code_cannot_send_is_refused(levels,
                                                              value):
    levels('volume', value)
    with pytest.raises(cfg.ConfigFileValueError,
                       match='speaks 1.0, 1.1, 1.2, 1.3, 1.4'):
        _volume_pin(Services())


def test_a_malformed_level_is_refused_by_the_option():
    with pytest.raises(ValueError):
        CONF.set_override('volume', 'newest', group='upgrade_levels')


def test_auto_pins_to_the_oldest_service_once_per_process(levels, caplog):
    levels('volume', 'auto')
    services = Services(('1.0', '1.0 (old@b)'))
    with caplog.at_level(logging.INFO, logger='tether.rpc'):
        pin = _volume_pin(services)
        again = _volume_pin(services)
    assert (pin.rpc, pin.objects, pin.final) == ('1.0', {'Volume': '1.0'},
                                                 True)
    assert again is pin
    assert services.reads == 1
    assert ('Automatically selected tether-volume RPC version 1.0 from '
            'minimum service version 1.0 (old@b)') in caplog.text
    rpc.reset_version_pins()
    _volume_pin(services)
    assert services.reads == 2


def test_auto_with_no_service_sends_the_newest_and_asks_again(levels):
    levels('volume', 'auto')
    services = Services()
    pin = _volume_pin(services)
    assert (pin.rpc, pin.objects) == (NEWEST_VOLUME,
                                      VOLUME_HISTORY[NEWEST_VOLUME])
    assert not pin.final
    # The first tether-volume registers: the next client reads it.
    services.found.append(('1.3', '1.3 (new@b)'))
    pin = _volume_pin(services)
    assert (pin.rpc, pin.final, services.reads) == ('1.3', True, 2)


def test_auto_with_a_service_newer_than_this_code(levels):
    levels('volume', 'auto')
    pin = _volume_pin(Services(('1.9', '1.9 (next@b)')))
    assert (pin.rpc, pin.objects) == (NEWEST_VOLUME,
                                      VOLUME_HISTORY[NEWEST_VOLUME])


@pytest.mark.parametrize('rows,expected', [
    ([], None),
    ([Row('a@b', '1.1')], ('1.1', '1.1 (a@b)')),
    # Mixed versions: the oldest, compared as versions, not strings.
    ([Row('a@b', '1.1'), Row('c@d', '1.0'), Row('e@f', '1.1')],
     ('1.0', '1.0 (c@d)')),
    # A record without a version is older than every version.
    ([Row('a@b', '1.1'), Row('old@b', None)], ('1.0', '1.0 (old@b)')),
])
def test_the_oldest_volume_service(monkeypatch, rows, expected):
    # The services table is a process edge here; the functional tests
    # read the real one.
    def get_all(context, binary=None, host=None):
        assert binary == 'tether-volume'
        return rows
    monkeypatch.setattr(volume_rpcapi.db_services, 'get_all', get_all)
    assert volume_rpcapi._oldest_service() == expected


@pytest.mark.parametrize('rows,expected', [
    ([], None),
    ([Row('h1', version=2), Row('h2', version=1)], ('1.0', '1 (h2)')),
    ([Row('h1', version=2), Row('h0', version=0)], ('1.0', '0 (h0)')),
    # Console output came with service version 3, RPC 1.1.
    ([Row('h1', version=3)], ('1.1', '3 (h1)')),
    # Servers from images with service version 4, RPC 1.2.
    ([Row('h1', version=4)], ('1.2', '4 (h1)')),
    ([Row('h1', version=4), Row('h2', version=3)], ('1.1', '3 (h2)')),
    ([Row('h1', version=3), Row('h2', version=2)], ('1.0', '2 (h2)')),
    ([Row('next', version=compute_version.SERVICE_VERSION + 5)],
     (compute_version.RPC_API_VERSION,
      '%d (next)' % (compute_version.SERVICE_VERSION + 5))),
])
def test_the_oldest_compute_service(monkeypatch, rows, expected):
    def get_all(context, binary=None, host=None):
        assert binary == 'tether-compute'
        return rows
    monkeypatch.setattr(compute_rpcapi.db_services, 'get_all', get_all)
    assert compute_rpcapi._oldest_service() == expected


# The histories ------------------------------------------------------------

def _registered():
    return {name: classes[0].VERSION for name, classes in
            objects_base.TetherObjectRegistry.obj_classes().items()}


@pytest.mark.parametrize('module', [volume_version, compute_version,
                                    backup_version],
                         ids=['volume', 'compute', 'backup'])
def test_the_newest_history_row_is_this_tree(module):
    history = module.RPC_OBJECT_VERSIONS
    newest = max(history, key=lambda v: tuple(map(int, v.split('.'))))
    assert newest == module.RPC_API_VERSION
    registered = _registered()
    for name, version in history[newest].items():
        assert registered[name] == version, (
            '%s is at %s: add a row for it to %s.RPC_OBJECT_VERSIONS '
            '(and an RPC minor version)'
            % (name, registered[name], module.__name__))
    for row in history.values():
        for name, version in row.items():
            assert rpc._as_tuple(version) <= rpc._as_tuple(registered[name])


def test_object_fingerprints():
    """A change of an object's fields needs a new version (and a row in
    the RPC histories); then update the fingerprint here."""
    checker = ovo_fixture.ObjectVersionChecker(
        objects_base.TetherObjectRegistry.obj_classes())
    expected = {
        'Attachment': '1.0-2fe4bc0917382c1155498ef73e7db32f',
        'Backup': '1.0-9b529dfcc7b58f2d5c9f14c63f622466',
        'Instance': '1.8-b2d7f11648a4be7ee9a48f05bf317304',
        'Snapshot': '1.1-44113fd319ff5a0b35797bf30346bbfa',
        'Volume': '1.5-0ade690478ffa38e2c9ec9827598b451',
    }
    assert checker.get_hashes() == expected


def test_service_versions_name_rpc_versions_in_order():
    rows = compute_version.SERVICE_VERSION_HISTORY
    assert compute_version.SERVICE_VERSION == len(rows) - 1
    versions = [rpc._as_tuple(row['compute_rpc']) for row in rows]
    assert versions == sorted(versions)
    assert all(row['compute_rpc'] in compute_version.RPC_OBJECT_VERSIONS
               for row in rows)
    assert rows[-1]['compute_rpc'] == compute_version.RPC_API_VERSION
    assert (compute_version.OLDEST_SUPPORTED_SERVICE_VERSION <=
            compute_version.EXTEND_COMPLETION_SERVICE_VERSION <=
            compute_version.CONSOLE_OUTPUT_SERVICE_VERSION <=
            compute_version.IMAGE_BUILD_SERVICE_VERSION <=
            compute_version.REBUILD_SERVICE_VERSION <=
            compute_version.SHARES_SERVICE_VERSION <=
            compute_version.PAUSE_SERVICE_VERSION <=
            compute_version.RESCUE_SERVICE_VERSION <=
            compute_version.ASSISTED_SNAPSHOT_SERVICE_VERSION <=
            compute_version.SNAPSHOT_BUILD_SERVICE_VERSION <=
            compute_version.CONFIG_DRIVE_SERVICE_VERSION <=
            compute_version.EXTEND_SIZE_SERVICE_VERSION <=
            compute_version.SERVICE_VERSION)
    # A host that takes the new size with extend_volume serves RPC 1.11,
    # one before not.
    assert compute_version.rpc_version_of(
        compute_version.EXTEND_SIZE_SERVICE_VERSION) == '1.11'
    assert compute_version.rpc_version_of(
        compute_version.EXTEND_SIZE_SERVICE_VERSION - 1) == '1.10'
    # A host that makes volumes of snapshots and snapshots servers into
    # images serves RPC 1.9, one before not.
    assert compute_version.rpc_version_of(
        compute_version.SNAPSHOT_BUILD_SERVICE_VERSION) == '1.9'
    assert compute_version.rpc_version_of(
        compute_version.SNAPSHOT_BUILD_SERVICE_VERSION - 1) == '1.8'
    # A host that makes config drives serves RPC 1.10, one before not.
    assert compute_version.rpc_version_of(
        compute_version.CONFIG_DRIVE_SERVICE_VERSION) == '1.10'
    assert compute_version.rpc_version_of(
        compute_version.CONFIG_DRIVE_SERVICE_VERSION - 1) == '1.9'
    # A host that takes assisted snapshots serves RPC 1.8, one before not.
    assert compute_version.rpc_version_of(
        compute_version.ASSISTED_SNAPSHOT_SERVICE_VERSION) == '1.8'
    assert compute_version.rpc_version_of(
        compute_version.ASSISTED_SNAPSHOT_SERVICE_VERSION - 1) == '1.7'
    # A host that rescues serves RPC 1.7, one before it not.
    assert compute_version.rpc_version_of(
        compute_version.RESCUE_SERVICE_VERSION) == '1.7'
    assert compute_version.rpc_version_of(
        compute_version.RESCUE_SERVICE_VERSION - 1) == '1.6'
    # A host that attaches shares serves RPC 1.4, one before it not.
    assert compute_version.rpc_version_of(
        compute_version.SHARES_SERVICE_VERSION) == '1.4'
    assert compute_version.rpc_version_of(
        compute_version.SHARES_SERVICE_VERSION - 1) == '1.3'
    # A host that builds from images serves RPC 1.2, one before it not.
    assert compute_version.rpc_version_of(
        compute_version.IMAGE_BUILD_SERVICE_VERSION) == '1.2'
    assert compute_version.rpc_version_of(
        compute_version.IMAGE_BUILD_SERVICE_VERSION - 1) == '1.1'
    # A host of the console output version serves the RPC version that
    # brought get_console_output.
    assert compute_version.rpc_version_of(
        compute_version.CONSOLE_OUTPUT_SERVICE_VERSION) == '1.1'
    assert compute_version.rpc_version_of(
        compute_version.CONSOLE_OUTPUT_SERVICE_VERSION - 1) == '1.0'


def test_managers_serve_what_the_clients_send():
    from tether.compute import manager as compute_manager
    from tether.volume import manager as volume_manager
    assert (volume_manager.VolumeManager.target.version ==
            volume_rpcapi.VolumeAPI.RPC_API_VERSION ==
            volume_version.RPC_API_VERSION)
    assert (compute_manager.ComputeManager.target.version ==
            compute_rpcapi.ComputeAPI.RPC_API_VERSION ==
            compute_version.RPC_API_VERSION)
    assert compute_manager.SERVICE_VERSION == compute_version.SERVICE_VERSION
    from tether.volume.backup import manager as backup_manager
    from tether.volume.backup import rpcapi as backup_rpcapi
    assert (backup_manager.BackupManager.target.version ==
            backup_rpcapi.BackupAPI.RPC_API_VERSION ==
            backup_version.RPC_API_VERSION)


# Objects at the pinned version ---------------------------------------------

def _serializer(pin):
    return rpc.RequestContextSerializer(object_versions=pin.objects)


def _data(primitive):
    return primitive['tether_object.data']


def _version(primitive):
    return primitive['tether_object.version']


def test_a_volume_at_rpc_1_0_is_volume_1_0_without_attachments():
    pin = rpc.pin_at(VOLUME_HISTORY, '1.0')
    sent = _serializer(pin).serialize_entity(None, sample_volume())
    assert _version(sent) == '1.0'
    assert 'attachments' not in _data(sent)
    assert _data(sent)['status'] == 'in-use'
    # What a receiver makes of it (nothing backported on its side).
    received = rpc.RequestContextSerializer().deserialize_entity(None, sent)
    assert received.VERSION == '1.0'
    assert not received.obj_attr_is_set('attachments')
    assert received.status == 'in-use'


def test_a_volume_at_rpc_1_1_is_volume_1_1_without_its_image():
    volume = sample_volume()
    volume.image_metadata = {'image_id': str(uuid.uuid4())}
    volume.use_quota = False
    sent = _serializer(rpc.pin_at(VOLUME_HISTORY, '1.1')).serialize_entity(
        None, volume)
    assert _version(sent) == '1.1'
    assert 'image_metadata' not in _data(sent)
    assert 'use_quota' not in _data(sent)
    newest = rpc.RequestContextSerializer().serialize_entity(None, volume)
    assert _version(newest) == '1.5'
    assert _data(newest)['image_metadata'] == volume.image_metadata
    assert _data(newest)['use_quota'] is False


def test_a_volume_before_rpc_1_5_is_volume_1_2_without_its_source():
    volume = sample_volume()
    volume.snapshot_id = str(uuid.uuid4())
    volume.source_volid = str(uuid.uuid4())
    sent = _serializer(rpc.pin_at(VOLUME_HISTORY, '1.4')).serialize_entity(
        None, volume)
    assert _version(sent) == '1.2'
    assert 'snapshot_id' not in _data(sent)
    assert 'source_volid' not in _data(sent)
    sent = _serializer(rpc.pin_at(VOLUME_HISTORY, '1.5')).serialize_entity(
        None, volume)
    assert _version(sent) == '1.3'
    assert (_data(sent)['snapshot_id'], _data(sent)['source_volid']) == (
        volume.snapshot_id, volume.source_volid)


def test_a_volume_at_rpc_1_1_carries_its_attachments():
    pin = rpc.pin_at(VOLUME_HISTORY, '1.1')
    volume = sample_volume(attachments=2)
    sent = _serializer(pin).serialize_entity(None, volume)
    assert _version(sent) == '1.1'
    children = _data(sent)['attachments']
    assert [_version(c) for c in children] == ['1.0', '1.0']
    received = rpc.RequestContextSerializer().deserialize_entity(None, sent)
    assert [a.id for a in received.attachments] == [
        a.id for a in volume.attachments]


def test_pinned_objects_inside_arguments_and_without_a_pin():
    pin = rpc.pin_at(VOLUME_HISTORY, '1.0')
    volume = sample_volume()
    sent = _serializer(pin).serialize_entity(
        None, {'volumes': [volume], 'other': 3})
    assert _version(sent['volumes'][0]) == '1.0'
    assert sent['other'] == 3
    unpinned = rpc.RequestContextSerializer().serialize_entity(None, volume)
    assert _version(unpinned) == '1.5'
    assert len(_data(unpinned)['attachments']) == 1


def test_a_backport_without_a_manifest():
    # obj_make_compatible alone (no manifest) drops what 1.0 lacks.
    primitive = sample_volume().obj_to_primitive(target_version='1.0')
    assert 'attachments' not in _data(primitive)


@pytest.mark.parametrize('version', ['1.0', '1.1'])
def test_an_instance_at_the_compute_pin(version):
    pin = rpc.pin_at(compute_version.RPC_OBJECT_VERSIONS, version)
    instance = instance_obj.Instance(uuid=str(uuid.uuid4()), project_id='p',
                                     user_id='u', vm_state='active',
                                     image_ref=str(uuid.uuid4()))
    sent = _serializer(pin).serialize_entity(None, instance)
    assert _version(sent) == '1.0'
    assert 'image_ref' not in _data(sent)
    received = rpc.RequestContextSerializer().deserialize_entity(None, sent)
    assert not received.is_image_backed


def test_an_instance_at_rpc_1_2_carries_its_image():
    image_id = str(uuid.uuid4())
    instance = instance_obj.Instance(uuid=str(uuid.uuid4()), project_id='p',
                                     user_id='u', vm_state='active',
                                     image_ref=image_id)
    pin = rpc.pin_at(compute_version.RPC_OBJECT_VERSIONS, '1.2')
    for serializer, version in ((_serializer(pin), '1.1'),
                                (rpc.RequestContextSerializer(), '1.8')):
        sent = serializer.serialize_entity(None, instance)
        assert _version(sent) == version
        assert _data(sent)['image_ref'] == image_id
    received = rpc.RequestContextSerializer().deserialize_entity(None, sent)
    assert received.is_image_backed


def test_a_manager_before_rpc_1_4_gets_no_pinned_zone():
    instance = instance_obj.Instance(uuid=str(uuid.uuid4()), project_id='p',
                                     user_id='u', vm_state='active',
                                     pinned_availability_zone='az1')
    old = rpc.pin_at(compute_version.RPC_OBJECT_VERSIONS, '1.3')
    sent = _serializer(old).serialize_entity(None, instance)
    assert _version(sent) == '1.2'
    assert 'pinned_availability_zone' not in _data(sent)
    new = rpc.pin_at(compute_version.RPC_OBJECT_VERSIONS, '1.4')
    sent = _serializer(new).serialize_entity(None, instance)
    assert _version(sent) == '1.3'
    assert _data(sent)['pinned_availability_zone'] == 'az1'


def test_a_manager_before_rpc_1_5_gets_no_key_pair():
    instance = instance_obj.Instance(uuid=str(uuid.uuid4()), project_id='p',
                                     user_id='u', vm_state='active',
                                     key_name='mine', key_data='ssh-ed25519 K')
    old = rpc.pin_at(compute_version.RPC_OBJECT_VERSIONS, '1.4')
    sent = _serializer(old).serialize_entity(None, instance)
    assert _version(sent) == '1.3'
    assert 'key_name' not in _data(sent) and 'key_data' not in _data(sent)
    new = rpc.pin_at(compute_version.RPC_OBJECT_VERSIONS, '1.5')
    sent = _serializer(new).serialize_entity(None, instance)
    assert _version(sent) == '1.4'
    assert (_data(sent)['key_name'], _data(sent)['key_data']) == (
        'mine', 'ssh-ed25519 K')


def test_a_manager_before_rpc_1_6_gets_no_lock_owner_or_reason():
    instance = instance_obj.Instance(uuid=str(uuid.uuid4()), project_id='p',
                                     user_id='u', vm_state='active',
                                     locked=True, locked_by='admin',
                                     locked_reason='audit')
    old = rpc.pin_at(compute_version.RPC_OBJECT_VERSIONS, '1.5')
    sent = _serializer(old).serialize_entity(None, instance)
    assert _version(sent) == '1.4'
    assert _data(sent)['locked'] is True
    assert 'locked_by' not in _data(sent)
    assert 'locked_reason' not in _data(sent)
    new = rpc.pin_at(compute_version.RPC_OBJECT_VERSIONS, '1.6')
    sent = _serializer(new).serialize_entity(None, instance)
    assert _version(sent) == '1.5'
    assert (_data(sent)['locked_by'], _data(sent)['locked_reason']) == (
        'admin', 'audit')


def test_a_manager_before_rpc_1_6_gets_no_user_data_or_access_ips():
    instance = instance_obj.Instance(uuid=str(uuid.uuid4()), project_id='p',
                                     user_id='u', vm_state='active',
                                     user_data='ZWNobw==',
                                     access_ip_v4='192.0.2.1',
                                     access_ip_v6='2001:db8::1')
    old = rpc.pin_at(compute_version.RPC_OBJECT_VERSIONS, '1.5')
    sent = _serializer(old).serialize_entity(None, instance)
    assert _version(sent) == '1.4'
    assert not {'user_data', 'access_ip_v4', 'access_ip_v6'} & set(
        _data(sent))
    new = rpc.pin_at(compute_version.RPC_OBJECT_VERSIONS, '1.6')
    sent = _serializer(new).serialize_entity(None, instance)
    assert (_data(sent)['user_data'], _data(sent)['access_ip_v4'],
            _data(sent)['access_ip_v6']) == ('ZWNobw==', '192.0.2.1',
                                             '2001:db8::1')


@pytest.mark.parametrize('vm_state,task_state', [
    ('active', 'pausing'), ('paused', None), ('paused', 'unpausing'),
    ('active', 'suspending'), ('suspended', None),
    ('suspended', 'resuming')])
def test_a_paused_or_suspended_instance_is_not_sent_before_rpc_1_6(
        vm_state, task_state):
    instance = instance_obj.Instance(uuid=str(uuid.uuid4()), project_id='p',
                                     user_id='u', vm_state=vm_state,
                                     task_state=task_state)
    old = rpc.pin_at(compute_version.RPC_OBJECT_VERSIONS, '1.5')
    with pytest.raises(ValueError, match='has no such'):
        _serializer(old).serialize_entity(None, instance)
    new = rpc.pin_at(compute_version.RPC_OBJECT_VERSIONS, '1.6')
    data = _data(_serializer(new).serialize_entity(None, instance))
    assert (data['vm_state'], data['task_state']) == (vm_state, task_state)


@pytest.mark.parametrize('vm_state,task_state', [
    ('active', 'rescuing'), ('stopped', 'rescuing'), ('rescued', None),
    ('rescued', 'unrescuing')])
def test_a_rescued_instance_is_not_sent_before_rpc_1_7(vm_state,
                                                       task_state):
    instance = instance_obj.Instance(uuid=str(uuid.uuid4()), project_id='p',
                                     user_id='u', vm_state=vm_state,
                                     task_state=task_state)
    old = rpc.pin_at(compute_version.RPC_OBJECT_VERSIONS, '1.6')
    with pytest.raises(ValueError, match='has no such'):
        _serializer(old).serialize_entity(None, instance)
    new = rpc.pin_at(compute_version.RPC_OBJECT_VERSIONS, '1.7')
    sent = _serializer(new).serialize_entity(None, instance)
    assert _version(sent) == '1.6'
    data = _data(sent)
    assert (data['vm_state'], data['task_state']) == (vm_state, task_state)


def test_an_active_instance_is_sent_at_1_5_below_rpc_1_7():
    instance = instance_obj.Instance(uuid=str(uuid.uuid4()), project_id='p',
                                     user_id='u', vm_state='active')
    old = rpc.pin_at(compute_version.RPC_OBJECT_VERSIONS, '1.6')
    assert _version(_serializer(old).serialize_entity(None, instance)) == \
        '1.5'


@pytest.mark.parametrize('task_state', ['rebuilding',
                                        'rebuild_block_device_mapping',
                                        'rebuild_spawning'])
def test_a_rebuilding_instance_is_not_sent_to_a_manager_before_rebuilds(
        task_state):
    instance = instance_obj.Instance(uuid=str(uuid.uuid4()), project_id='p',
                                     user_id='u', vm_state='active',
                                     task_state=task_state)
    old = rpc.pin_at(compute_version.RPC_OBJECT_VERSIONS, '1.2')
    with pytest.raises(ValueError, match='has no such task_state'):
        _serializer(old).serialize_entity(None, instance)
    new = rpc.pin_at(compute_version.RPC_OBJECT_VERSIONS, '1.3')
    assert _data(_serializer(new).serialize_entity(
        None, instance))['task_state'] == task_state


def test_a_volume_at_rpc_1_3_is_volume_1_2():
    # 1.3 added methods, no object version.
    assert VOLUME_HISTORY['1.3'] == VOLUME_HISTORY['1.2']
    sent = _serializer(rpc.pin_at(VOLUME_HISTORY, '1.3')).serialize_entity(
        None, sample_volume())
    assert _version(sent) == '1.2'


def test_a_volume_before_rpc_1_7_is_volume_1_3_without_its_group():
    volume = sample_volume()
    volume.group_id = str(uuid.uuid4())
    sent = _serializer(rpc.pin_at(VOLUME_HISTORY, '1.6')).serialize_entity(
        None, volume)
    assert _version(sent) == '1.3'
    assert 'group_id' not in _data(sent)
    received = rpc.RequestContextSerializer().deserialize_entity(None, sent)
    assert received.group_id is None
    newest = _serializer(rpc.pin_at(VOLUME_HISTORY, '1.7')).serialize_entity(
        None, volume)
    assert (_version(newest), _data(newest)['group_id']) == (
        '1.4', volume.group_id)


@pytest.mark.parametrize('task_state', ['image_snapshot',
                                        'image_pending_upload',
                                        'image_uploading', 'image_backup'])
def test_an_instance_being_snapshotted_is_not_sent_before_rpc_1_9(
        task_state):
    instance = instance_obj.Instance(uuid=str(uuid.uuid4()), project_id='p',
                                     user_id='u', vm_state='active',
                                     task_state=task_state)
    old = rpc.pin_at(compute_version.RPC_OBJECT_VERSIONS, '1.8')
    with pytest.raises(ValueError, match='has no such'):
        _serializer(old).serialize_entity(None, instance)
    new = rpc.pin_at(compute_version.RPC_OBJECT_VERSIONS, '1.9')
    sent = _serializer(new).serialize_entity(None, instance)
    assert _version(sent) == '1.7'
    assert _data(sent)['task_state'] == task_state
