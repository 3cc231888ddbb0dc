"""Config drives, proven from inside the tiny test guest (tools/guest/): a
server created with ``config_drive`` true, a key pair and user data gets
a FAT disk labelled config-2 in Nova's layout; the guest finds it by its
label and reports on its serial console its uuid, name, key pair (name
and fingerprint) and the first line of its user data. A rebuild with new
user data (2.57) gives it a new config drive; a rescued guest keeps it.
The console is read with os-getConsoleOutput, as a user reads it."""

import base64
import uuid

from cryptography.hazmat.primitives.asymmetric import ed25519
from cryptography.hazmat.primitives import serialization
import pytest

from tests.functional.compute import server_helpers as sh
from tests.functional import guest_console
from tests.functional import image_helpers

TINY_A, TINY_B = 'tether-tiny-a', 'tether-tiny-b'
# m1.micro: 128 MiB (the tiny guest's kernel does not come up in 64).
FLAVOR = '2'


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def _public_key():
    return ed25519.Ed25519PrivateKey.generate().public_key().public_bytes(
        serialization.Encoding.OpenSSH,
        serialization.PublicFormat.OpenSSH).decode() + ' cd@example.org'


def _user_data(first_line):
    return base64.b64encode(
        ('%s\nsecond line\n' % first_line).encode()).decode()


def _config_drive(console, after=0):
    _, fields, _ = console.wait_word('CONFIG-DRIVE', after)
    return fields


def test_the_key_and_user_data_reach_the_guest(cloud, guest_images):
    user = cloud.project()
    image_a = image_helpers.upload_file(user.conn, guest_images[TINY_A])
    image_b = image_helpers.upload_file(user.conn, guest_images[TINY_B])
    keypair = user.conn.compute.create_keypair(
        name='cd-' + uuid.uuid4().hex[:6], public_key=_public_key())
    name = 'cd-' + uuid.uuid4().hex[:6]
    server = user.conn.compute.create_server(
        name=name, image_id=image_a.id, flavor_id=FLAVOR, networks='none',
        key_name=keypair.name, user_data=_user_data('tether-first-line'),
        config_drive=True)
    user.track(server.id)
    server = user.wait_server(server.id)
    assert server.has_config_drive == 'True'
    console = guest_console.GuestConsole(user.conn, server)
    up = console.wait_up(TINY_A)
    seen = _config_drive(console)
    assert seen['uuid'] == server.id
    assert seen['name'] == name
    assert seen['hostname'] == server.hostname
    assert (seen['key'], seen['keyfp']) == (keypair.name,
                                            keypair.fingerprint)
    assert seen['userdata'] == 'tether-first-line'
    # The config drive comes after the root disk, the guest boots from
    # its root disk.
    assert len(console.boot_disks(up)) == 2
    _, bootdisk, _ = console.wait_word('BOOTDISK')
    assert bootdisk['name'] != seen['dev']

    # Rebuilt with new user data: a new config drive says so.
    resp = user.action(server.id, {'rebuild': {
        'imageRef': image_a.id,
        'user_data': _user_data('rebuilt-first-line')}}, version='2.57')
    assert resp.status_code == 202, resp.text
    user.wait_server(server.id, 'ACTIVE')
    console.wait_up(TINY_A)
    seen = _config_drive(console)
    assert seen['userdata'] == 'rebuilt-first-line'
    assert seen['keyfp'] == keypair.fingerprint

    # Rescued with B: B boots and finds the server's config drive.
    resp = user.action(server.id, {'rescue': {
        'rescue_image_ref': image_b.id}})
    assert resp.status_code == 200, resp.text
    user.wait_server(server.id, 'RESCUE')
    console.wait_up(TINY_B)
    assert _config_drive(console)['uuid'] == server.id
