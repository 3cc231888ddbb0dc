"""The keystone.conf tether.cmd.keystone.runner writes."""

import configparser

from tether.cmd.keystone import runner


def _read(tmp_path, **kwargs):
    runner.write_config(str(tmp_path), 5000, **kwargs)
    parser = configparser.ConfigParser()
    parser.read(tmp_path / 'keystone.conf')
    return parser


def test_bcrypt_keeps_keystones_default_unless_asked(tmp_path):
    parser = _read(tmp_path)
    assert not parser.has_section('identity')
    assert parser['token']['provider'] == 'fernet'


def test_a_scratch_deployment_sets_the_hash_rounds(tmp_path):
    parser = _read(tmp_path, password_hash_rounds=4)
    assert parser['identity']['password_hash_rounds'] == '4'
    assert parser['database']['connection'].startswith('sqlite:///')
