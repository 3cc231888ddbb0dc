"""A restarted volume service settles what it left half done.

A crash mid-operation is simulated by putting volumes (created normally)
back into ``creating``, ``deleting`` or ``extending`` through the DB layer
while the volume service is stopped, as the API's claims leave them; the
rules are those of the docstring of ``tether.volume.ops.volumes.reconcile``.
"""

import datetime
import os
import subprocess

from oslo_config import cfg
from oslo_utils import timeutils
import requests

from tests.functional import aio_subprocess
from tests.functional import helpers
from tests.functional.helpers import GiB
from tether.db.volume import quota as db_quotas
from tether.db.volume import volume as db_volumes

CONF = cfg.CONF


def _set_status(volume_id, status, **values):
    assert db_volumes.conditional_update(
        helpers.admin_context(), volume_id, dict(values, status=status),
        None)


def _reserve_extend(project_id, volume_id, delta):
    """The reservation os-extend makes, for the volume's id."""
    return db_quotas.reserve(helpers.admin_context(), project_id,
                             {'gigabytes': delta}, {}, 3600,
                             resource_id=volume_id)


def test_creating_and_deleting_are_finished(aio, wait):
    http = aio.http()
    kept = helpers.create_volume(http, size=1, wait_for=wait)
    lost = helpers.create_volume(http, size=2, wait_for=wait)
    doomed = helpers.create_volume(http, size=3, wait_for=wait)
    assert helpers.usage(http.project) == {'volumes': (3, 0),
                                           'gigabytes': (6, 0)}

    def crash():
        # A create interrupted after qemu-img ran, one interrupted before
        # it did (neither had recorded its share yet), and a delete
        # interrupted before the file was removed.
        _set_status(kept['id'], 'creating', provider_location=None)
        _set_status(lost['id'], 'creating', provider_location=None)
        os.unlink(aio.volume_path(lost['id']))
        _set_status(doomed['id'], 'deleting')

    aio.restart_volume_service(before_start=crash)

    for volume, size in ((kept, 1), (lost, 2)):
        shown = http.get('/volumes/%s' % volume['id']).json()['volume']
        assert (shown['status'], shown['size']) == ('available', size)
        assert helpers.virtual_size(aio.volume_path(volume['id'])) == (
            size * GiB, 'raw')
        assert helpers.db_volume(volume['id']).provider_location == \
            aio.share_dir
    assert http.get('/volumes/%s' % doomed['id']).status_code == 404
    assert not os.path.exists(aio.volume_path(doomed['id']))
    assert helpers.usage(http.project) == {'volumes': (2, 0),
                                           'gigabytes': (3, 0)}
    # The restarted service serves new requests.
    helpers.create_volume(http, size=1, wait_for=wait)


def test_extending_is_committed_or_rolled_back(aio, wait):
    http = aio.http()
    grown = helpers.create_volume(http, size=1, wait_for=wait)
    not_grown = helpers.create_volume(http, size=1, wait_for=wait)
    unreserved = helpers.create_volume(http, size=1, wait_for=wait)

    def crash():
        for volume in (grown, not_grown, unreserved):
            _set_status(volume['id'], 'extending',
                        previous_status='available')
        # Extends to 3G that reserved their quota; one got as far as
        # resizing the file, the other did not.
        _reserve_extend(http.project, grown['id'], 2)
        _reserve_extend(http.project, not_grown['id'], 2)
        subprocess.run(['qemu-img', 'resize', '-f', 'raw',
                        aio.volume_path(grown['id']), str(3 * GiB)],
                       check=True, capture_output=True)
        # One crashed between its claim and its reservation.
        assert helpers.usage(http.project) == {'volumes': (3, 0),
                                               'gigabytes': (3, 4)}

    aio.restart_volume_service(before_start=crash)

    def shown(volume):
        return http.get('/volumes/%s' % volume['id']).json()['volume']

    assert (shown(grown)['status'], shown(grown)['size']) == ('available', 3)
    for volume in (not_grown, unreserved):
        assert (shown(volume)['status'], shown(volume)['size']) == (
            'available', 1)
        assert helpers.virtual_size(
            aio.volume_path(volume['id']))[0] == 1 * GiB
    assert helpers.usage(http.project) == {'volumes': (3, 0),
                                           'gigabytes': (5, 0)}
    for volume in (grown, not_grown):
        assert db_quotas.get_reservations_for(helpers.admin_context(),
                                              volume['id']) == []
    # The rolled back one can be extended again, for real this time.
    resp = http.post('/volumes/%s/action' % not_grown['id'],
                     json={'os-extend': {'new_size': 2}})
    assert resp.status_code == 202, resp.text
    wait(lambda: shown(not_grown)['size'] == 2, what='extend after restart')
    assert helpers.usage(http.project)['gigabytes'] == (6, 0)


def test_reset_status_of_an_abandoned_extend_gives_its_quota_back(aio, wait):
    http = aio.http()
    volume = helpers.create_volume(http, size=1, wait_for=wait)

    def crash():
        _set_status(volume['id'], 'extending', previous_status='available')
        _reserve_extend(http.project, volume['id'], 4)

    # Stop the service and leave the extend in flight while it is down.
    aio.impl.volume_service.stop()
    try:
        crash()
        admin = aio.http('admin', 'admin')
        resp = admin.post('/volumes/%s/action' % volume['id'],
                          json={'os-reset_status': {'status': 'available'}})
        assert resp.status_code == 202, resp.text
    finally:
        aio.restart_volume_service()
    assert helpers.usage(http.project) == {'volumes': (1, 0),
                                           'gigabytes': (1, 0)}
    assert helpers.db_volume(volume['id']).status == 'available'


# A whole tether-aio, stopped and started again -------------------------------

def test_restarting_the_aio_keeps_every_volume(tmp_path, wait):
    state_dir = tmp_path / 'state'
    session = requests.Session()
    session.headers['X-Auth-Token'] = 'demo:demo'
    proc, url = aio_subprocess.start(state_dir)
    try:
        sizes = {}
        for size in (1, 2, 3):
            body = {'volume': {'size': size, 'metadata': {'n': str(size)}}}
            resp = session.post(url + '/demo/volumes', json=body)
            assert resp.status_code == 202, resp.text
            sizes[resp.json()['volume']['id']] = size

        def all_available():
            body = session.get(url + '/demo/volumes/detail').json()
            return all(v['status'] == 'available' for v in body['volumes'])
        wait(all_available, what='volumes available')
    finally:
        aio_subprocess.stop(proc)

    proc, url = aio_subprocess.start(state_dir)
    try:
        volumes = session.get(url + '/demo/volumes/detail').json()['volumes']
        assert {v['id']: v['size'] for v in volumes} == sizes
        for v in volumes:
            assert v['status'] == 'available'
            assert v['metadata'] == {'n': str(v['size'])}
            path = state_dir / 'shares' / 'local' / ('volume-%s' % v['id'])
            assert helpers.virtual_size(str(path))[0] == v['size'] * GiB
        # And it works on: extend one.
        some = volumes[0]
        resp = session.post(url + '/demo/volumes/%s/action' % some['id'],
                            json={'os-extend': {'new_size': some['size'] + 1}})
        assert resp.status_code == 202, resp.text
        wait(lambda: session.get(url + '/demo/volumes/%s' % some['id']).json()
             ['volume']['size'] == some['size'] + 1, what='extend')
    finally:
        aio_subprocess.stop(proc)


def test_deleting_a_create_that_never_recorded_its_share(aio, wait):
    """Regression: the file of an interrupted create outlived its volume.

    A create interrupted after qemu-img ran, before it recorded its share
    (provider_location), is reset to error by an admin and deleted: the
    driver skipped the delete for want of a share and left the file.
    """
    http = aio.http()
    volume = helpers.create_volume(http, size=1, wait_for=wait)
    path = aio.volume_path(volume['id'])
    _set_status(volume['id'], 'error', provider_location=None)
    assert http.delete('/volumes/%s' % volume['id']).status_code == 202
    wait(lambda: helpers.db_volume(volume['id']) is None, what='delete')
    assert not os.path.exists(path)
    assert helpers.usage(http.project) == {'volumes': (0, 0),
                                           'gigabytes': (0, 0)}


# Stale operations: no message drives them ----------------------------------

def _long_ago():
    """Older than the timeout the tests pass (100 s), younger than the
    periodic's own (300 s): only the test's call takes these up."""
    return timeutils.utcnow() - datetime.timedelta(seconds=200)


def test_stale_creates_and_deletes_are_taken_up_again(aio, wait):
    """An API that stopped after its claim but before its cast leaves a
    volume creating or deleting with nothing on the way to the manager:
    the periodic re-drive finishes it, and leaves alone what is recent or
    what the manager is working on."""
    http = aio.http()
    created = [helpers.create_volume(http, size=s, wait_for=wait)
               for s in (1, 2, 1, 1)]
    stale_create, stale_delete, recent, busy = created
    _set_status(stale_create['id'], 'creating', provider_location=None,
                updated_at=_long_ago())
    os.unlink(aio.volume_path(stale_create['id']))
    _set_status(stale_delete['id'], 'deleting', updated_at=_long_ago())
    _set_status(recent['id'], 'deleting')
    _set_status(busy['id'], 'deleting', updated_at=_long_ago())

    manager = aio.impl.volume_service.backends[0].manager
    with manager._exclusive(busy['id']) as taken:
        assert taken
        assert manager.redrive_stale_operations(
            helpers.admin_context(), timeout=100) == 2

    shown = http.get('/volumes/%s' % stale_create['id']).json()['volume']
    assert (shown['status'], shown['size']) == ('available', 1)
    assert helpers.virtual_size(aio.volume_path(stale_create['id'])) == (
        GiB, 'raw')
    assert http.get('/volumes/%s' % stale_delete['id']).status_code == 404
    assert not os.path.exists(aio.volume_path(stale_delete['id']))
    for left in (recent, busy):
        shown = http.get('/volumes/%s' % left['id']).json()['volume']
        assert shown['status'] == 'deleting'
        assert os.path.exists(aio.volume_path(left['id']))
    # The deleted volume's quota is given back, nothing stays reserved.
    assert helpers.usage(http.project) == {'volumes': (3, 0),
                                           'gigabytes': (3, 0)}

    # Once it is stale and no one works on it, the busy one goes too.
    assert manager.redrive_stale_operations(
        helpers.admin_context(), timeout=100) == 1
    assert http.get('/volumes/%s' % busy['id']).status_code == 404
    _set_status(recent['id'], 'available')


def test_the_volume_service_redrives_stale_operations_by_itself(aio, wait):
    http = aio.http()
    volume = helpers.create_volume(http, size=1, wait_for=wait)
    aio.restart_volume_service(before_start=lambda: CONF.set_override(
        'volume_operation_timeout', 2))
    try:
        _set_status(volume['id'], 'deleting', updated_at=_long_ago())
        wait(lambda: http.get('/volumes/%s' % volume['id']).status_code
             == 404, timeout=15, what='the re-drive of a stale delete')
        assert not os.path.exists(aio.volume_path(volume['id']))
    finally:
        aio.restart_volume_service(
            before_start=lambda: CONF.clear_override(
                'volume_operation_timeout'))
