"""Restarts in the middle of workflows: RabbitMQ, tether-volume, an API;
and PostgreSQL between requests.

While clients create volumes (and extend and attach some), one part of the
deployment stops and starts again. Afterwards:

* every request the API acknowledged (202, or 200 for an attach) reached
  its end: its volume is available or in-use, an acknowledged attach is
  attached, an acknowledged extend is settled (grown, or rolled back to the
  old size where tether-volume died before growing the file, as
  doc/source/reconciliation.rst promises);
* nothing is half changed: no volume of the project is left creating,
  extending, deleting or in an error state, each volume's file has its
  size, each attachment is attached to a server that lists it, and the
  quota usage (the quota-sets API, ?usage=true) is what the volumes add
  up to, with nothing reserved.

These run last (conftest.py orders them), in a project of their own.
"""

import os
import threading
import time

import pytest

from tests.integration.clients import GiB, unique, wait_for

PROJECT = 'res'
SETTLED = ('available', 'in-use')


@pytest.fixture(scope='module')
def project(cloud):
    cloud.deployment.add_project(PROJECT)
    # The streams of creates below make more volumes than the default
    # quota allows.
    resp = cloud.volume_request(
        'admin', 'PUT', '/os-quota-sets/%s' % cloud.project_id(PROJECT),
        json={'quota_set': {'volumes': -1, 'gigabytes': -1}})
    assert resp.status_code == 200, resp.text
    return PROJECT


@pytest.fixture(scope='module')
def server(cloud, project):
    compute = cloud.sdk(project).compute
    root = _available_volume(cloud)
    server = compute.create_server(
        name=unique('res'), flavor_id='1', networks='none',
        block_device_mapping=[{'boot_index': 0, 'uuid': root,
                               'source_type': 'volume',
                               'destination_type': 'volume'}])
    server = cloud.wait_server(project, server.id)
    yield server
    compute.delete_server(server.id)
    compute.wait_for_delete(server, wait=120)


def _available_volume(cloud, size=1):
    resp = cloud.volume_request(PROJECT, 'POST', '/volumes',
                                json={'volume': {'size': size,
                                                 'name': unique('res')}})
    assert resp.status_code == 202, resp.text
    volume_id = resp.json()['volume']['id']
    cloud.wait_volume(PROJECT, volume_id, 'available')
    return volume_id


class Creates:
    """Clients creating 1 GiB volumes, one after the other each, until
    stopped; what the API acknowledged and what it did not."""

    def __init__(self, cloud, clients=2):
        self.cloud = cloud
        self.accepted = []
        self.refused = []
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._run)
                         for _ in range(clients)]

    def _run(self):
        while not self._stop.is_set():
            try:
                resp = self.cloud.volume_request(
                    PROJECT, 'POST', '/volumes',
                    json={'volume': {'size': 1, 'name': unique('stream')}})
            except Exception as exc:  # noqa: BLE001 - not acknowledged
                self.refused.append(repr(exc))
            else:
                if resp.status_code == 202:
                    self.accepted.append(resp.json()['volume']['id'])
                else:
                    self.refused.append((resp.status_code, resp.text))
            time.sleep(0.1)

    def __enter__(self):
        for t in self._threads:
            t.start()
        # Some requests before the fault.
        wait_for(lambda: len(self.accepted) >= 4, 60,
                 what='the first creates')
        return self

    def __exit__(self, *exc):
        time.sleep(1)   # and some after it
        self._stop.set()
        for t in self._threads:
            t.join(300)


class Call(threading.Thread):
    """One request in a thread of its own: (status, body), or the
    exception for a request that got no answer."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn
        self.result = None

    def run(self):
        try:
            resp = self.fn()
            self.result = (resp.status_code, resp.text)
        except Exception as exc:  # noqa: BLE001 - no answer
            self.result = (None, repr(exc))

    @property
    def acknowledged(self):
        self.join(300)
        return self.result[0] in (200, 202)


def _extend(cloud, volume_id, size):
    return Call(lambda: cloud.volume_request(
        PROJECT, 'POST', '/volumes/%s/action' % volume_id,
        json={'os-extend': {'new_size': size}}))


def _attach(cloud, server, volume_id):
    return Call(lambda: cloud.sdk(PROJECT).compute.post(
        '/servers/%s/os-volume_attachments' % server.id,
        json={'volumeAttachment': {'volumeId': volume_id}}))


def _project_volumes(cloud):
    project_id = cloud.project_id(PROJECT)
    return {v['id']: v for v in cloud.volumes('admin', all_projects=True)
            if v['os-vol-tenant-attr:tenant_id'] == project_id}


def _assert_settled(cloud, accepted, server):
    """Every volume of the project settles, nothing half changed; the
    volumes by ID. ``server`` is the project's only server."""
    busy = []

    def settled():
        volumes = _project_volumes(cloud)
        busy[:] = [(v['id'], v['status'], v['id'] in accepted)
                   for v in volumes.values() if v['status'] not in SETTLED]
        return None if busy else volumes
    volumes = wait_for(settled, 180, interval=0.5,
                       what=lambda: 'every volume of %s to settle; still '
                                    '(id, status, acknowledged): %s'
                                    % (PROJECT, busy))
    lost = set(accepted) - set(volumes)
    assert not lost, 'acknowledged creates without a volume: %s' % lost
    share = cloud.deployment.share_dir
    for volume in volumes.values():
        path = os.path.join(share, 'volume-' + volume['id'])
        assert os.path.getsize(path) == volume['size'] * GiB, volume
        attached_to = [a['server_id'] for a in volume['attachments']]
        if volume['status'] == 'in-use':
            assert attached_to == [server.id], volume
        else:
            assert attached_to == [], volume
    listed = cloud.sdk(PROJECT).compute.get(
        '/servers/%s/os-volume_attachments' % server.id).json()
    in_use = {v['id'] for v in volumes.values() if v['status'] == 'in-use'}
    assert {a['volumeId'] for a in listed['volumeAttachments']} == in_use
    cloud.assert_quota_matches(PROJECT)
    return volumes


def test_rabbitmq_restarts_during_creates_an_extend_and_an_attach(
        cloud, project, server):
    grow, attach = _available_volume(cloud), _available_volume(cloud)
    with Creates(cloud) as creates:
        calls = [_extend(cloud, grow, 2), _attach(cloud, server, attach)]
        for call in calls:
            call.start()
        cloud.deployment.rabbit.restart()
    extend, attached = calls
    volumes = _assert_settled(cloud, creates.accepted, server)
    assert creates.accepted
    if extend.acknowledged:
        assert volumes[grow]['size'] == 2
    if attached.acknowledged:
        assert volumes[attach]['status'] == 'in-use'
        path = os.path.join(cloud.deployment.share_dir, 'volume-' + attach)
        assert cloud.disk_target(server.id, path)


def test_tether_volume_killed_during_creates_and_extends(
        cloud, project, server):
    grow = {_available_volume(cloud): 2 for _ in range(3)}
    with Creates(cloud) as creates:
        calls = [_extend(cloud, volume_id, size)
                 for volume_id, size in grow.items()]
        for call in calls:
            call.start()
        cloud.deployment.restart_volume_manager(kill=True)
    volumes = _assert_settled(cloud, creates.accepted, server)
    for call, (volume_id, size) in zip(calls, grow.items()):
        assert call.acknowledged, call.result
        # Grown, or rolled back if tether-volume died before the file grew
        # (the user may try again); the file and the quota agree with it
        # (checked above).
        assert volumes[volume_id]['size'] in (1, size)


def test_a_cast_to_a_stopped_tether_volume_survives_a_rabbitmq_restart(
        cloud, project, server):
    cloud.deployment.volume_manager.stop()
    try:
        accepted = []
        for _ in range(5):
            resp = cloud.volume_request(
                PROJECT, 'POST', '/volumes',
                json={'volume': {'size': 1, 'name': unique('queued')}})
            assert resp.status_code == 202, resp.text
            accepted.append(resp.json()['volume']['id'])
        cloud.deployment.rabbit.restart()
    finally:
        cloud.deployment.volume_manager.start()
    _assert_settled(cloud, accepted, server)


def test_a_volume_api_worker_killed_and_the_api_restarted(cloud, project,
                                                          server):
    api = cloud.deployment.volume_api
    with Creates(cloud, clients=3) as creates:
        api.kill_worker()
        wait_for(lambda: len(creates.accepted) >= 10, 60,
                 what='creates after the worker was replaced')
        # SIGTERM: the workers finish the requests they have.
        api.restart()
    assert len(creates.accepted) >= 10
    # Every acknowledged create ends available, with tether-volume as it
    # was.
    wait_for(lambda: all(
        cloud.get_volume(PROJECT, v)['status'] == 'available'
        for v in creates.accepted), 120, interval=0.5,
        what='the acknowledged creates to be available')
    # A worker killed between recording a volume and sending its create
    # to tether-volume (a request never answered) leaves it creating: the
    # next start of tether-volume finishes it (reconciliation).
    unanswered = [v['id'] for v in _project_volumes(cloud).values()
                  if v['status'] == 'creating']
    if unanswered:
        cloud.deployment.restart_volume_manager(kill=False)
    _assert_settled(cloud, creates.accepted, server)


def test_postgresql_restarted_between_requests(cloud, project, server):
    """A restart of PostgreSQL leaves every pooled connection of every
    service dead. The requests right after it are served all the same:
    a pool tests a connection before it uses it and replaces a dead one.
    Reads and writes of both APIs and of tether-volume, each many times
    over (several API workers, several pooled connections each)."""
    volume_id = _available_volume(cloud)
    compute = cloud.sdk(PROJECT).compute
    cloud.deployment.db.stop()
    cloud.deployment.db.start()
    for _ in range(10):
        resp = cloud.volume_request(PROJECT, 'GET', '/volumes/%s' % volume_id)
        assert resp.status_code == 200, resp.text
        resp = compute.get('/servers/%s' % server.id)
        assert resp.status_code == 200, resp.text
    made = [_available_volume(cloud) for _ in range(3)]
    _assert_settled(cloud, made, server)
