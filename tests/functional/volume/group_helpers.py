"""What the group tests share: calls over HTTP, waits, quota usage."""

import uuid

from tests.functional import helpers
from tether.db.volume import quota as db_quotas

VERSION = '3.71'
RESOURCES = ('volumes', 'gigabytes', 'snapshots', 'groups')


def usage(project_id):
    usages = db_quotas.get_usages(helpers.admin_context(), project_id)
    return {r: usages.get(r, (0, 0))[0] for r in RESOURCES}


def name(prefix):
    return '%s-%s' % (prefix, uuid.uuid4().hex[:8])


def group_type(admin_http, **attrs):
    body = dict({'name': name('gtype')}, **attrs)
    resp = admin_http.post('/group_types', json={'group_type': body})
    assert resp.status_code == 202, resp.text
    return resp.json()['group_type']


def volume_type(admin_http):
    resp = admin_http.post('/types', json={'volume_type': {
        'name': name('vtype')}})
    assert resp.status_code == 200, resp.text
    return resp.json()['volume_type']


def group(http, group_type_id, volume_type_ids, wait_for=None, **attrs):
    resp = http.post('/groups', json={'group': dict(
        group_type=group_type_id, volume_types=volume_type_ids, **attrs)})
    assert resp.status_code == 202, resp.text
    created = resp.json()['group']
    if wait_for is not None:
        return wait_status(http, '/groups/%s' % created['id'], 'group',
                           'available', wait_for)
    return created


def wait_status(http, path, key, status, wait_for):
    def check():
        resp = http.get(path)
        assert resp.status_code == 200, resp.text
        body = resp.json()[key]
        assert body['status'] != 'error', body
        return body if body['status'] == status else None
    return wait_for(check, what='%s %s' % (path, status))


def wait_gone(http, path, wait_for):
    wait_for(lambda: http.get(path).status_code == 404,
             what='%s gone' % path)


def volume(http, group_id, volume_type_id, wait_for, size=1):
    return helpers.create_volume(http, size=size, wait_for=wait_for,
                                 group_id=group_id,
                                 volume_type=volume_type_id)


def group_snapshot(http, group_id, wait_for=None, **attrs):
    resp = http.post('/group_snapshots', json={'group_snapshot': dict(
        group_id=group_id, **attrs)})
    assert resp.status_code == 202, resp.text
    created = resp.json()['group_snapshot']
    if wait_for is not None:
        return wait_status(http, '/group_snapshots/%s' % created['id'],
                           'group_snapshot', 'available', wait_for)
    return created


def delete_group(http, group_id, delete_volumes=False):
    return http.post('/groups/%s/action' % group_id, json={
        'delete': {'delete-volumes': delete_volumes}})


def error(resp, status):
    assert resp.status_code == status, resp.text
    return next(iter(resp.json().values()))['message']
