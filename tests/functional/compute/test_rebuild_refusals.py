"""Rebuilds refused before anything changes (bodies, images, states,
policies, hosts and APIs that cannot rebuild), a root volume kept below
2.93, and the volume-reimaged event, with the real volume service and
Glance (rebuild_helpers.py has what they share)."""

import http.server
import io
import json
import threading
import uuid
from urllib import parse

import pytest
import requests
from tests.functional.compute import rebuild_helpers
from tests.functional.compute.rebuild_helpers import (
    CONF, FLAVOR, MiB, TINY_A, V2_92, V2_93, booted_from_image, no_os_image,
    rebuild, volume_from)
from tests.functional.compute import server_helpers as sh
from tests.functional import guest_console
from tests.functional import helpers

from tether.compute import rpcapi as compute_rpcapi
from tether.compute import volume_client
from tether.compute import version as compute_version
from tether.db.compute import instance as db_instances
from tether.db.compute import service as db_compute_services


# The fixtures of rebuild_helpers.
cloud = rebuild_helpers.cloud
tiny = rebuild_helpers.tiny


# Refused before anything changes -----------------------------------------

def _unchanged(user, server, root):
    shown = user.server(server.id)
    assert (shown['status'], shown['OS-EXT-STS:task_state']) == (
        'ACTIVE', None)
    volume = user.show_volume(root['id'])
    assert volume['status'] == 'in-use'
    assert [a['server_id'] for a in volume['attachments']] == [server.id]
    actions = user.compute(V2_93).get(
        '/servers/%s/os-instance-actions' % server.id).json()
    assert [a['action'] for a in actions['instanceActions']] == ['create']


def test_another_image_below_2_93_is_refused(cloud):
    user = cloud.project()
    server, root = booted_from_image(user)
    other = no_os_image(user.conn, b'other')
    resp = rebuild(user, server.id, other, V2_92)
    assert resp.status_code == 400, resp.text
    assert ('Unable to rebuild with a different image for a volume-backed '
            'server') in sh.message(resp)
    assert resp.json()['badRequest']['error_code'] == \
        'compute.image.unacceptable'
    _unchanged(user, server, root)


@pytest.mark.parametrize('body,version,words', [
    ({'reimage_boot_volume': False}, V2_93, 'reimage_boot_volume cannot '
                                            'be false'),
    ({'reimage_boot_volume': 'true'}, V2_93, 'It must be true or false '
                                             '(a JSON boolean)'),
    ({'reimage_boot_volume': True}, V2_92, 'reimage_boot_volume'),
    ({'key_name': 'mykey'}, V2_93, 'key_name'),
    ({'user_data': 'not base64!'}, V2_93, 'user_data'),
    ({'personality': []}, V2_93, 'personality'),
    ({'hostname': 'a_b'}, V2_93, 'hostname'),
    ({'description': 'd'}, '2.18', 'description'),
], ids=['reimage-false', 'reimage-string', 'reimage-below-2.93',
        'key-name', 'user-data', 'personality', 'bad-hostname',
        'description-below-2.19'])
def test_bodies_that_are_refused(cloud, body, version, words):
    user = cloud.project()
    server, root = booted_from_image(user)
    made_from = user.show_volume(root['id'])['volume_image_metadata']
    resp = rebuild(user, server.id, made_from['image_id'], version, **body)
    assert resp.status_code == 400, resp.text
    assert words in sh.message(resp)
    _unchanged(user, server, root)


@pytest.mark.parametrize('image', ['7c0d6a4e-96a5-4a8f-a3a5-0c0f3f1c2b01',
                                   'not-an-image'],
                         ids=['unknown-id', 'not-an-id'])
def test_an_image_that_cannot_be_found(cloud, image):
    user = cloud.project()
    server, root = booted_from_image(user)
    resp = rebuild(user, server.id, image)
    assert resp.status_code == 400, resp.text
    assert 'Cannot find image %s for rebuild.' % image == sh.message(resp)
    _unchanged(user, server, root)


def test_an_image_that_is_not_active(cloud):
    user = cloud.project()
    server, root = booted_from_image(user)
    queued = user.conn.image.create_image(name='queued', disk_format='raw',
                                          container_format='bare')
    resp = rebuild(user, server.id, queued.id)
    assert resp.status_code == 400, resp.text
    assert 'is not active' in sh.message(resp)
    _unchanged(user, server, root)


def test_an_image_larger_than_the_root_volume(cloud, tmp_path):
    user = cloud.project()
    server, root = booted_from_image(user)
    big = user.conn.image.create_image(
        name='big', data=io.BytesIO(bytes(MiB)), disk_format='raw',
        container_format='bare', min_disk=2)
    resp = rebuild(user, server.id, big.id)
    assert resp.status_code == 400, resp.text
    assert ('its min_disk, 2GB, is larger than the root volume %s (1GB)'
            % root['id']) in sh.message(resp)
    _unchanged(user, server, root)


def test_a_multiattach_root_volume_is_not_reimaged(cloud):
    admin = cloud.admin()
    types = admin.volumes('3.71')
    name = 'multi-' + uuid.uuid4().hex[:6]
    resp = types.post('/types', json={'volume_type': {
        'name': name, 'extra_specs': {'multiattach': '<is> True'}}})
    assert resp.status_code == 200, resp.text
    user = cloud.project()
    image = no_os_image(user.conn)
    root = helpers.create_volume(user.volumes('3.71'), size=1,
                                 imageRef=image, volume_type=name,
                                 wait_for=user.wait)
    cloud.volumes.append((user, root['id']))
    assert root['multiattach'] is True
    server = user.boot(root)
    resp = rebuild(user, server.id, image)
    assert resp.status_code == 400, resp.text
    assert 'is multiattach' in sh.message(resp)
    _unchanged(user, server, root)


def test_a_server_in_a_task_or_locked(cloud, aio):
    user = cloud.project()
    server, root = booted_from_image(user)
    image = user.show_volume(root['id'])['volume_image_metadata'][
        'image_id']
    ctx = helpers.admin_context()
    db_instances.update(ctx, server.id, {'task_state': 'powering-off'})
    resp = rebuild(user, server.id, image)
    assert resp.status_code == 409, resp.text
    assert 'task_state powering-off' in sh.message(resp)
    # Locked (the columns as its owner's lock sets them, so that the
    # server's actions stay ['create']; test_lock_server.py locks over
    # HTTP).
    db_instances.update(ctx, server.id, {'task_state': None,
                                         'locked': True,
                                         'locked_by': 'owner'})
    resp = rebuild(user, server.id, image)
    assert resp.status_code == 409, resp.text
    assert sh.message(resp) == 'Instance %s is locked.' % server.id
    db_instances.update(ctx, server.id, {'locked': False,
                                         'locked_by': None})
    _unchanged(user, server, root)


def test_a_reader_may_not_rebuild(cloud):
    user = cloud.project()
    server, root = booted_from_image(user)
    reader = sh.Project(cloud, 'reader-' + uuid.uuid4().hex[:6],
                        user.project, ['reader'])
    resp = rebuild(reader, server.id, str(uuid.uuid4()))
    assert resp.status_code == 403, resp.text
    assert 'os_compute_api:servers:rebuild' in sh.message(resp)
    _unchanged(user, server, root)


# A root volume kept (below 2.93, the image it was made from) ----------------

def test_rebuild_with_the_same_image_below_2_93_keeps_the_root_volume(
        cloud, tiny):
    """The guest is made again on the same root volume: the file the
    guest wrote before is still there, as Nova keeps it."""
    user = cloud.project()
    root = volume_from(user, tiny[TINY_A])
    server = user.boot(root, flavor=FLAVOR)
    console = guest_console.GuestConsole(user.conn, server)
    console.wait_up(TINY_A)
    rc, _ = console.command('tether-guest stamp-write before-rebuild')
    assert rc == 0

    resp = rebuild(user, server.id, tiny[TINY_A], V2_92, name='renamed',
                   metadata={'k': 'v'})
    assert resp.status_code == 202, resp.text
    body = resp.json()['server']
    assert body['status'] == 'REBUILD'
    assert (body['name'], body['metadata']) == ('renamed', {'k': 'v'})
    user.wait_server(server.id)

    up = console.wait_up(TINY_A)
    _, bootdisk, _ = console.wait_word('BOOTDISK')
    assert bootdisk['stamps'] == 'before-rebuild'
    assert console.boot_disks(up)['sda']['serial'] == root['id']
    volume = user.show_volume(root['id'])
    assert volume['status'] == 'in-use'
    assert [a['server_id'] for a in volume['attachments']] == [server.id]
    events = [e['event'] for e in user.instance_action(
        server.id, resp.headers['x-openstack-request-id'])['events']]
    assert events == ['compute_rebuild_instance']


# The deployment cannot rebuild: refused with 409 ----------------------------

@pytest.fixture
def moved_to(aio):
    """Put a server on a made-up host whose record says ``version`` and
    ``traits`` (no tether-compute serves it: every check must refuse
    before anything is sent there); moved back after the test."""
    moved = []
    ctx = helpers.admin_context()

    def move(server, version, traits):
        host = 'other-%s' % uuid.uuid4().hex[:6]
        record = db_compute_services.register(
            ctx, host, 'tether-compute', 'tether-compute', 'nova', version,
            compute_version.rpc_version_of(version))
        db_compute_services.heartbeat(ctx, record.id, traits=traits)
        original = db_instances.get(ctx, server.id).host
        db_instances.update(ctx, server.id, {'host': host})
        moved.append((server.id, original, record.id))
    yield move
    for server_id, original, record_id in moved:
        db_instances.update(ctx, server_id, {'host': original})
        db_compute_services.destroy(ctx, record_id)


@pytest.mark.parametrize('version,traits,words', [
    (4, ['COMPUTE_REBUILD_BFV'], 'cannot serve rebuild: it is at service '
                                 'version 4, and rebuild needs 5'),
    (5, ['COMPUTE_VOLUME_EXTEND'], 'cannot rebuild volume-backed servers: '
                                   'it does not report the trait '
                                   'COMPUTE_REBUILD_BFV'),
], ids=['older-host', 'no-trait'])
def test_a_host_that_cannot_rebuild(cloud, moved_to, version, traits,
                                    words):
    user = cloud.project()
    server, root = booted_from_image(user)
    image = user.show_volume(root['id'])['volume_image_metadata'][
        'image_id']
    moved_to(server, version, traits)
    resp = rebuild(user, server.id, image)
    assert resp.status_code == 409, resp.text
    assert words in sh.message(resp)
    _unchanged(user, server, root)


def test_a_compute_api_pinned_below_rebuilds(cloud, levels, monkeypatch):
    user = cloud.project()
    server, root = booted_from_image(user)
    image = user.show_volume(root['id'])['volume_image_metadata'][
        'image_id']
    levels('compute', '1.2')
    monkeypatch.setattr(compute_rpcapi, '_client', None)
    resp = rebuild(user, server.id, image)
    assert resp.status_code == 409, resp.text
    assert ('rebuild needs tether-compute RPC version 1.3; '
            '[upgrade_levels] compute holds the API at 1.2') in \
        sh.message(resp)
    _unchanged(user, server, root)


class _CinderBeforeYoga:
    """A volume API that serves up to microversion 3.60, as Cinder did
    before Yoga (os-reimage came with 3.68): a proxy in front of tether's
    volume API whose version discovery says 3.60 and which passes every
    other request on. Such a Cinder is outside tether and cannot run
    here; only its version discovery differs from tether's."""

    MAX = '3.60'

    def __init__(self, upstream):
        parts = parse.urlsplit(upstream)
        self.upstream = '%s://%s' % (parts.scheme, parts.netloc)
        self.discovered = 0
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def _pass_on(self):
                length = int(self.headers.get('Content-Length') or 0)
                headers = {k: v for k, v in self.headers.items()
                           if k.lower() not in ('host', 'content-length')}
                resp = requests.request(
                    self.command, proxy.upstream + self.path,
                    headers=headers,
                    data=self.rfile.read(length) if length else None,
                    timeout=60)
                body = resp.content
                if self.command == 'GET' and \
                        self.path.rstrip('/') in ('', '/v3'):
                    proxy.discovered += 1
                    body = proxy.older(resp.json(), self.headers['Host'])
                self.send_response(resp.status_code)
                for key, value in resp.headers.items():
                    if key.lower() not in ('content-length', 'connection',
                                           'transfer-encoding', 'date',
                                           'server'):
                        self.send_header(key, value)
                self.send_header('Content-Length', str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = do_PUT = do_DELETE = _pass_on

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(('127.0.0.1', 0),
                                                     Handler)
        threading.Thread(target=self.httpd.serve_forever,
                         daemon=True).start()
        self.url = 'http://127.0.0.1:%d%s' % (self.httpd.server_address[1],
                                              parts.path)

    def older(self, document, host):
        for version in document['versions']:
            version['version'] = self.MAX
        return json.dumps(document).replace(
            self.upstream, 'http://' + host).encode()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def cinder_before_yoga(aio):
    """A call points tether's compute services at a volume API of
    microversion 3.60 (:class:`_CinderBeforeYoga`) for the rest of the
    test, and returns it."""
    proxy = _CinderBeforeYoga(CONF.volume.endpoint_override)
    with helpers.repointed('volume', volume_client.PEER) as point:
        def older():
            point(proxy.url)
            return proxy
        yield older
    proxy.close()


def test_a_volume_api_too_old_to_reimage(cloud, cinder_before_yoga):
    """The spec's CinderAPIVersionNotAvailable: 409 before anything
    changes, naming the microversion needed and the one served."""
    user = cloud.project()
    server, root = booted_from_image(user)
    image = no_os_image(user.conn, b'too old')
    old = cinder_before_yoga()
    resp = rebuild(user, server.id, image)
    assert resp.status_code == 409, resp.text
    assert sh.message(resp) == (
        'Re-imaging the root volume of a server needs volume API '
        'microversion 3.68; the volume API serves up to 3.60.')
    assert old.discovered >= 1
    _unchanged(user, server, root)
    # Below 2.93 the root volume is kept (the image it was made of):
    # that rebuild needs no os-reimage, and the old volume API serves it.
    made_from = root['volume_image_metadata']['image_id']
    resp = rebuild(user, server.id, made_from, V2_92)
    assert resp.status_code == 202, resp.text
    user.wait_server(server.id)


# volume-reimaged: accepted from 2.93 ---------------------------------------

def test_the_volume_reimaged_event(cloud):
    user = cloud.project()
    server, root = booted_from_image(user)
    service = cloud.admin().compute(V2_93)
    event = {'name': 'volume-reimaged', 'server_uuid': server.id,
             'tag': root['id'], 'status': 'completed'}
    # No rebuild waits for it: accepted, and dropped on the host.
    resp = service.post('/os-server-external-events',
                        json={'events': [event]})
    assert resp.status_code == 200, resp.text
    assert resp.json()['events'] == [dict(event, code=200)]
    # Without a tag (which names the volume) it is accepted too, as Nova
    # does (volume-reimaged is not one of the events a tag is required
    # of), and no rebuild could be waiting for it.
    untagged = dict(event)
    del untagged['tag']
    resp = service.post('/os-server-external-events',
                        json={'events': [untagged]})
    assert resp.status_code == 200, resp.text
    assert resp.json()['events'] == [dict(untagged, code=200)]
    # Before 2.93 there is no such event.
    resp = cloud.admin().compute('2.92').post(
        '/os-server-external-events', json={'events': [event]})
    assert resp.status_code == 400, resp.text
    _unchanged(user, server, root)
