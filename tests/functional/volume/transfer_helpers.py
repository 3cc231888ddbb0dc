"""What the volume transfer tests share: calls over HTTP and the usage
of a project's quota."""

from tests.functional.volume import snapshot_helpers as sh

LATEST = '3.71'


def usage(project_id):
    """In use of volumes, gigabytes and snapshots (nothing reserved: a
    transfer reserves nothing it does not settle in its transaction)."""
    return sh.usage(project_id)


def offer(http, volume_id, path='/volume-transfers', status=202, **attrs):
    """POST a transfer of ``volume_id``; its body (with ``auth_key``)."""
    resp = http.post(path, json={'transfer': dict(volume_id=volume_id,
                                                  **attrs)})
    assert resp.status_code == status, resp.text
    return resp.json()['transfer'] if status == 202 else resp


def accept(http, transfer_id, auth_key, path='/volume-transfers'):
    return http.post('%s/%s/accept' % (path, transfer_id),
                     json={'accept': {'auth_key': auth_key}})


def volume_of(http, volume_id):
    resp = http.get('/volumes/%s' % volume_id)
    assert resp.status_code == 200, resp.text
    return resp.json()['volume']


def error(resp, status):
    return sh.error(resp, status)
