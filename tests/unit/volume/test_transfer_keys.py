"""The keys of volume transfers (tether.volume.api.transfers): what is
stored opens with the key it was made of, and with nothing else."""

import hashlib
import hmac
import secrets

from tether.volume.api import transfers


def test_a_key_is_16_hex_digits_and_new_each_time():
    keys = {transfers.new_key() for _ in range(50)}
    assert len(keys) == 50
    for key in keys:
        assert len(key) == transfers.KEY_LENGTH
        int(key, 16)


def test_the_hash_is_an_hmac_sha256_under_the_salt():
    salt = secrets.token_hex(transfers.SALT_BYTES)
    expected = hmac.new(bytes.fromhex(salt), b'0123abcd0123abcd',
                        hashlib.sha256).hexdigest()
    assert transfers.key_hash(salt, '0123abcd0123abcd') == expected
    # Another salt, another hash: equal keys do not show in the table.
    other = secrets.token_hex(transfers.SALT_BYTES)
    assert transfers.key_hash(other, '0123abcd0123abcd') != expected


def test_only_the_key_opens():
    salt = secrets.token_hex(transfers.SALT_BYTES)
    key = transfers.new_key()
    stored = transfers.key_hash(salt, key)
    assert transfers.key_matches(salt, stored, key)
    for wrong in (key.upper() if key.upper() != key else key + '0',
                  key[:-1], key + ' ', '', 'x' * 16):
        assert not transfers.key_matches(salt, stored, wrong)


def test_a_number_is_taken_as_its_digits():
    salt = secrets.token_hex(transfers.SALT_BYTES)
    stored = transfers.key_hash(salt, '1234567890123456')
    assert transfers.key_matches(salt, stored, 1234567890123456)
    assert not transfers.key_matches(salt, stored, 1234567890123457)
