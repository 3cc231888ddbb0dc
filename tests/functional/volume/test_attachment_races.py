"""Attachment requests racing each other: one wins, no row is left over.

Real threads against the real API and database (helpers.race).
"""

import uuid

import sqlalchemy as sa

from tests.functional import helpers
from tether.db.volume import models
from tether.db import session as db_session

CONNECTOR = {'host': 'race-host', 'mountpoint': '/dev/vdb'}


def _clients(aio, http, n):
    return [aio.http(http.user, http.project, version='3.44')
            for _ in range(n)]


def _rows(volume_id):
    """The attachment rows of a volume, from the database itself."""
    with db_session.VOLUME.get_engine().connect() as conn:
        return list(conn.execute(
            sa.select(models.VolumeAttachment.id,
                      models.VolumeAttachment.attach_status)
            .where(models.VolumeAttachment.volume_id == volume_id)))


def _connected(http, volume):
    resp = http.post('/attachments', json={'attachment': {
        'volume_uuid': volume['id'], 'instance_uuid': str(uuid.uuid4()),
        'connector': CONNECTOR}})
    assert resp.status_code == 200, resp.text
    return resp.json()['attachment']


def test_twenty_creates_on_one_volume_one_wins(aio, wait):
    http = aio.http(version='3.44')
    volume = helpers.create_volume(http, wait_for=wait)
    results = helpers.race([
        lambda c=c: c.post('/attachments', json={'attachment': {
            'volume_uuid': volume['id'],
            'instance_uuid': str(uuid.uuid4())}})
        for c in _clients(aio, http, 20)])
    codes = sorted(r.status_code for r in results)
    assert codes == [200] + [400] * 19, [r.text for r in results]
    won = [r.json()['attachment']['id'] for r in results
           if r.status_code == 200]
    for r in results:
        if r.status_code == 400:
            assert 'not multiattach' in r.json()['badRequest']['message']
    assert [row.id for row in _rows(volume['id'])] == won
    assert helpers.db_volume(volume['id']).status == 'reserved'


def test_delete_and_complete_race(aio, wait):
    """Either order is fine; the volume always ends available, no rows."""
    http = aio.http(version='3.44')
    outcomes = set()
    for _ in range(4):
        volume = helpers.create_volume(http, wait_for=wait)
        attachment = _connected(http, volume)
        path = '/attachments/%s' % attachment['id']
        completer, deleter = _clients(aio, http, 2)
        complete, delete = helpers.race([
            lambda: completer.post(path + '/action',
                                   json={'os-complete': {}}),
            lambda: deleter.delete(path)])
        assert delete.status_code == 200, delete.text
        if complete.status_code == 204:
            outcomes.add('complete first')
        else:
            # The delete claimed it first (400 naming its status), or had
            # already removed it (404).
            assert complete.status_code in (400, 404), complete.text
            outcomes.add('delete first')
        assert _rows(volume['id']) == []
        shown = http.get('/volumes/%s' % volume['id']).json()['volume']
        assert (shown['status'], shown['attachments']) == ('available', [])
        assert http.delete('/volumes/%s' % volume['id']).status_code == 202
    assert outcomes


def test_attachment_delete_racing_an_extend(aio, wait):
    """The extend needs the volume available: it wins only once the
    delete has finished; nothing is stuck and the quota is exact."""
    http = aio.http(version='3.44')
    for _ in range(4):
        volume = helpers.create_volume(http, size=1, wait_for=wait)
        attachment = _connected(http, volume)
        path = '/attachments/%s' % attachment['id']
        http.post(path + '/action', json={'os-complete': {}})
        extender, deleter = _clients(aio, http, 2)
        extend, delete = helpers.race([
            lambda: extender.post('/volumes/%s/action' % volume['id'],
                                  json={'os-extend': {'new_size': 2}}),
            lambda: deleter.delete(path)])
        assert delete.status_code == 200, delete.text
        if extend.status_code == 202:
            size = 2
        else:
            assert extend.status_code == 400, extend.text
            message = extend.json()['badRequest']['message']
            assert 'in-use' in message or 'detaching' in message, message
            size = 1
        shown = helpers.wait_until_status(http, volume['id'], 'available',
                                          wait)
        assert shown['size'] == size
        assert _rows(volume['id']) == []
        assert http.delete('/volumes/%s' % volume['id']).status_code == 202
        wait(lambda: helpers.db_volume(volume['id']) is None, what='gone')
        assert helpers.usage(http.project) == {'volumes': (0, 0),
                                               'gigabytes': (0, 0)}


def test_create_racing_a_volume_delete(aio, wait):
    """Either the volume is deleted, or it has the attachment and stays."""
    http = aio.http(version='3.44')
    for _ in range(4):
        volume = helpers.create_volume(http, wait_for=wait)
        creator, deleter = _clients(aio, http, 2)
        create, delete = helpers.race([
            lambda: creator.post('/attachments', json={'attachment': {
                'volume_uuid': volume['id']}}),
            lambda: deleter.delete('/volumes/%s' % volume['id'])])
        if delete.status_code == 202:
            assert create.status_code in (400, 404), create.text
            wait(lambda: helpers.db_volume(volume['id']) is None,
                 what='gone')
        else:
            assert (create.status_code, delete.status_code) == (200, 400)
            assert 'is reserved' in delete.json()['badRequest']['message']
            assert len(_rows(volume['id'])) == 1
