"""The files of a config drive (tether.compute.configdrive): Nova's
layout of a server's record, and when a server gets one."""

import base64
import json
import uuid

from oslo_config import cfg
import pytest

from tether.compute import configdrive
from tether.objects.compute import instance as instance_obj

CONF = cfg.CONF
LATEST = 'openstack/latest/'


def _instance(**values):
    return instance_obj.Instance(**dict(
        dict(uuid=str(uuid.uuid4()), project_id='p1', display_name='web 1',
             hostname='web-1', availability_zone='nova', metadata={},
             key_name=None, key_data=None, user_data=None,
             config_drive=''), **values))


def test_a_server_without_a_key_or_user_data():
    instance = _instance()
    files = configdrive.files(instance)
    assert set(files) == {LATEST + n for n in (
        'meta_data.json', 'vendor_data.json', 'vendor_data2.json',
        'network_data.json')}
    assert json.loads(files[LATEST + 'meta_data.json']) == {
        'uuid': instance.uuid, 'name': 'web 1', 'hostname': 'web-1',
        'launch_index': 0, 'availability_zone': 'nova',
        'project_id': 'p1', 'meta': {}, 'devices': []}
    assert json.loads(files[LATEST + 'network_data.json']) == {
        'links': [], 'networks': [], 'services': []}


def test_keys_user_data_and_metadata():
    key = 'ssh-ed25519 AAAAC3Nza me@example.org'
    cert = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n'
    data = b'#cloud-config\n\x00\xff binary too'
    files = configdrive.files(_instance(
        key_name='k1', key_data=key, metadata={'a': 'b'},
        user_data=base64.b64encode(data).decode()))
    meta = json.loads(files[LATEST + 'meta_data.json'])
    assert meta['public_keys'] == {'k1': key}
    assert meta['keys'] == [{'name': 'k1', 'type': 'ssh', 'data': key}]
    assert meta['meta'] == {'a': 'b'}
    assert files[LATEST + 'user_data'] == data
    # One line, keys sorted: the tiny guest reads it with sed.
    text = files[LATEST + 'meta_data.json'].decode()
    assert '\n' not in text
    # (The last "name" and "uuid" are the server's.)
    assert text.index('"meta"') < text.rindex('"name"') < \
        text.rindex('"uuid"')
    x509 = json.loads(configdrive.files(_instance(
        key_name='c', key_data=cert))[LATEST + 'meta_data.json'])
    assert x509['keys'][0]['type'] == 'x509'


@pytest.mark.parametrize('asked,forced,expected', [
    ('', False, False), ('True', False, True), ('', True, True),
    ('True', True, True)])
def test_when_a_server_gets_one(asked, forced, expected):
    CONF.set_override('force_config_drive', forced)
    try:
        assert configdrive.required(_instance(config_drive=asked)) is \
            expected
    finally:
        CONF.clear_override('force_config_drive')


def test_a_record_of_an_older_api_has_none():
    instance = _instance()
    del instance.config_drive
    assert not configdrive.asked(instance)
