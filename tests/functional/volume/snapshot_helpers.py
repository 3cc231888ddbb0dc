"""What the snapshot tests share: calls over HTTP, waits, quota usage."""

import uuid

from tests.functional import helpers
from tether.db import session
from tether.db.volume import quota as db_quotas
from tether.db.volume import snapshot as db_snapshots


def usage(project_id):
    usages = db_quotas.get_usages(helpers.admin_context(), project_id)
    return {r: usages.get(r, (0, 0))[0]
            for r in ('volumes', 'gigabytes', 'snapshots')}


def snapshot(http, volume_id, wait_for=None, **attrs):
    resp = http.post('/snapshots', json={'snapshot': dict(
        volume_id=volume_id, **attrs)})
    assert resp.status_code == 202, resp.text
    snapshot = resp.json()['snapshot']
    if wait_for is not None:
        snapshot = wait_status(http, snapshot['id'], 'available', wait_for)
    return snapshot


def wait_status(http, snapshot_id, status, wait_for):
    def check():
        resp = http.get('/snapshots/%s' % snapshot_id)
        assert resp.status_code == 200, resp.text
        body = resp.json()['snapshot']
        assert body['status'] != 'error', body
        return body if body['status'] == status else None
    return wait_for(check, what='snapshot %s %s' % (snapshot_id, status))


def wait_gone(http, path, wait_for):
    wait_for(lambda: http.get(path).status_code == 404,
             what='%s gone' % path)


def error(resp, status):
    assert resp.status_code == status, resp.text
    return next(iter(resp.json().values()))['message']


@session.VOLUME.writer
def insert_creating(context, volume):
    """A snapshot row left ``creating`` with no message for it (as after
    a crash between the API's insert and its cast)."""
    return db_snapshots.create_in_transaction(context, {
        'id': str(uuid.uuid4()), 'volume_id': volume['id'],
        'project_id': volume['os-vol-tenant-attr:tenant_id'],
        'user_id': volume['user_id'], 'status': 'creating', 'progress': '0%',
        'volume_size': volume['size'], 'use_quota': False})
