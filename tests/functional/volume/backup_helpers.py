"""What the backup tests share: data written with qemu-io and compared
with qemu-img, calls over HTTP, waits, quota usage."""

import os
import shutil
import subprocess

from tests.functional import helpers
from tether.db.volume import quota as db_quotas

MiB = 1024 * 1024


def write(path, offset, length, pattern, fmt='raw'):
    """``length`` bytes of ``pattern`` (a byte) at ``offset`` of the
    image ``path``, through QEMU's block layer (as a guest writes)."""
    subprocess.run(['qemu-io', '-f', fmt, '-c', 'write -P %d %d %d' % (
        pattern, offset, length), path], check=True, capture_output=True)


def same_data(a, b, fmt_a='raw', fmt_b='raw'):
    """Whether two images read the same (qemu-img compare: a shorter one
    reads zeros past its end)."""
    proc = subprocess.run(['qemu-img', 'compare', '-f', fmt_a, '-F', fmt_b,
                           a, b], capture_output=True, text=True)
    assert proc.returncode in (0, 1), proc.stderr
    return proc.returncode == 0


def keep_copy(path, directory, name):
    """A copy of the image ``path`` (sparse) to compare with later."""
    copy = os.path.join(str(directory), name)
    subprocess.run(['cp', '--sparse=always', path, copy], check=True)
    return copy


def usage(project_id):
    usages = db_quotas.get_usages(helpers.admin_context(), project_id)
    return {r: usages.get(r, (0, 0))[0]
            for r in ('volumes', 'gigabytes', 'backups', 'backup_gigabytes')}


def backup(http, volume_id, wait_for=None, status='available', **attrs):
    resp = http.post('/backups', json={'backup': dict(volume_id=volume_id,
                                                      **attrs)})
    assert resp.status_code == 202, resp.text
    made = resp.json()['backup']
    if wait_for is not None:
        made = wait_status(http, made['id'], status, wait_for)
    return made


def wait_status(http, backup_id, status, wait_for, timeout=60):
    def check():
        resp = http.get('/backups/%s' % backup_id)
        assert resp.status_code == 200, resp.text
        body = resp.json()['backup']
        if status != 'error':
            assert body['status'] != 'error', body
        return body if body['status'] == status else None
    return wait_for(check, timeout=timeout,
                    what='backup %s %s' % (backup_id, status))


def wait_gone(http, backup_id, wait_for):
    wait_for(lambda: http.get('/backups/%s' % backup_id).status_code == 404,
             what='backup %s gone' % backup_id)


def restore(http, backup_id, status=202, **body):
    resp = http.post('/backups/%s/restore' % backup_id,
                     json={'restore': body or None})
    assert resp.status_code == status, resp.text
    return resp.json()['restore'] if status == 202 else resp.json()


def error(resp, status):
    assert resp.status_code == status, resp.text
    return next(iter(resp.json().values()))['message']


def backup_files(aio, backup):
    path = os.path.join(aio.backup_dir, backup['container'])
    return sorted(os.listdir(path)) if os.path.isdir(path) else []


def remove_tree(path):
    shutil.rmtree(path, ignore_errors=True)
