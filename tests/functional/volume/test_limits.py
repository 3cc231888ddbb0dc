"""Absolute limits over HTTP (GET /limits): the caller's quota and usage."""

import uuid

from tests.functional import helpers


def test_limits_of_a_fresh_project(aio):
    user = aio.sdk()
    limits = user.block_storage.get_limits()
    assert limits.rate == []
    assert limits.absolute.max_total_volumes == 10
    assert limits.absolute.max_total_volume_gigabytes == 1000
    assert limits.absolute.total_volumes_used == 0
    assert limits.absolute.total_gigabytes_used == 0


def test_wire_format(aio):
    http = aio.http()
    resp = http.get('/limits')
    assert resp.status_code == 200, resp.text
    assert resp.json() == {'limits': {'rate': [], 'absolute': {
        'maxTotalVolumes': 10, 'maxTotalVolumeGigabytes': 1000,
        'maxTotalSnapshots': 10, 'maxTotalBackups': 10,
        'maxTotalBackupGigabytes': 1000,
        'totalVolumesUsed': 0, 'totalGigabytesUsed': 0,
        'totalSnapshotsUsed': 0, 'totalBackupsUsed': 0,
        'totalBackupGigabytesUsed': 0}}}


def test_limits_follow_quota_and_usage(aio, wait):
    admin = aio.admin()
    user = aio.sdk()
    http = aio.http(user.test_user, user.test_project)
    admin.block_storage.update_quota_set(user.test_project, volumes=4,
                                         gigabytes=-1)
    volume = helpers.create_volume(http, size=3, wait_for=wait)

    absolute = user.block_storage.get_limits().absolute
    assert absolute.max_total_volumes == 4
    assert absolute.max_total_volume_gigabytes == -1
    assert absolute.total_volumes_used == 1
    assert absolute.total_gigabytes_used == 3

    user.block_storage.delete_volume(volume['id'])
    wait(lambda: http.get('/volumes/%s' % volume['id']).status_code == 404,
         what='volume deleted')
    absolute = user.block_storage.get_limits().absolute
    assert absolute.total_volumes_used == 0
    assert absolute.total_gigabytes_used == 0


def test_admin_reads_another_project_from_3_39(aio, wait):
    http = aio.http()
    helpers.create_volume(http, size=2, wait_for=wait)
    query = '/limits?project_id=%s' % http.project

    admin = aio.http('admin', 'admin', version='3.39')
    absolute = admin.get(query).json()['limits']['absolute']
    assert absolute['totalGigabytesUsed'] == 2
    admin = aio.admin()
    assert admin.block_storage.get_limits(
        http.project).absolute.total_gigabytes_used == 2

    # Before 3.39 the parameter is ignored, as in Cinder: the admin's own.
    old = aio.http('admin', 'admin-' + uuid.uuid4().hex[:6], version='3.38')
    absolute = old.get(query).json()['limits']['absolute']
    assert absolute['totalGigabytesUsed'] == 0


def test_member_cannot_read_another_project(aio, wait):
    http = aio.http()
    helpers.create_volume(http, size=2, wait_for=wait)
    nosy = aio.http(version='3.39')
    resp = nosy.get('/limits?project_id=%s' % http.project)
    assert resp.status_code == 200, resp.text
    # The member gets their own (empty) project, not the other one.
    assert resp.json()['limits']['absolute']['totalGigabytesUsed'] == 0


def test_used_values_need_the_used_limits_policy(aio):
    nobody = aio.http(roles=['nothing'])
    resp = nobody.get('/limits')
    assert resp.status_code == 200, resp.text
    assert resp.json()['limits']['absolute'] == {
        'maxTotalVolumes': 10, 'maxTotalVolumeGigabytes': 1000,
        'maxTotalSnapshots': 10, 'maxTotalBackups': 10,
        'maxTotalBackupGigabytes': 1000}


def test_bad_query_gets_400_naming_it(aio):
    http = aio.http()
    resp = http.get('/limits?bogus=1')
    assert resp.status_code == 400, resp.text
    assert 'bogus' in resp.json()['badRequest']['message']
    resp = http.get('/limits?project_id=')
    assert resp.status_code == 400, resp.text
    assert 'project_id' in resp.json()['badRequest']['message']
