"""Generic volume groups raced against a real database: each request on
its own session; one wins, the other is refused with a clear 400, and
the quota is exact either way."""

import uuid

import pytest

from tests.functional import helpers
from tests.functional.volume import group_helpers as gh
from tether.db.volume import group as db_groups


@pytest.fixture
def admin_http(aio):
    return aio.http('admin', 'admin', version=gh.VERSION)


def _user(aio):
    http = aio.http(version=gh.VERSION)
    return http, lambda: aio.http(http.user, http.project,
                                  version=gh.VERSION)


def test_a_volume_added_to_two_groups_at_once(aio, admin_http, wait):
    gtype, vtype = gh.group_type(admin_http), gh.volume_type(admin_http)
    http, session = _user(aio)
    groups = [gh.group(http, gtype['id'], [vtype['id']]) for _ in range(2)]
    for _ in range(3):
        volume = helpers.create_volume(http, wait_for=wait,
                                       volume_type=vtype['id'])
        results = helpers.race([
            lambda g=g: session().put('/groups/%s' % g['id'], json={
                'group': {'add_volumes': volume['id']}})
            for g in groups])
        codes = sorted(r.status_code for r in results)
        assert codes == [202, 400], [r.text for r in results]
        winner = groups[[r.status_code for r in results].index(202)]
        loser = [r for r in results if r.status_code == 400][0]
        assert 'already in group %s' % winner['id'] in loser.text
        assert http.get('/volumes/%s' % volume['id']).json()['volume'][
            'group_id'] == winner['id']


def test_a_group_delete_and_a_group_snapshot(aio, admin_http, wait):
    gtype, vtype = gh.group_type(admin_http), gh.volume_type(admin_http)
    for _ in range(3):
        http, session = _user(aio)
        group = gh.group(http, gtype['id'], [vtype['id']])
        gh.volume(http, group['id'], vtype['id'], wait)
        delete, snap = helpers.race([
            lambda: gh.delete_group(session(), group['id'], True),
            lambda: session().post('/group_snapshots', json={
                'group_snapshot': {'group_id': group['id']}})])
        codes = (delete.status_code, snap.status_code)
        # (404: the group was gone before the snapshot's create read it.)
        assert codes in ((202, 400), (400, 202), (202, 404)), (
            delete.text, snap.text)
        if snap.status_code == 202:
            gh.wait_status(http, '/group_snapshots/%s' % snap.json()[
                'group_snapshot']['id'], 'group_snapshot', 'available',
                wait)
            assert gh.usage(http.project) == {
                'volumes': 1, 'gigabytes': 2, 'snapshots': 1, 'groups': 1}
        else:
            gh.wait_gone(http, '/groups/%s' % group['id'], wait)
            assert gh.usage(http.project) == {
                'volumes': 0, 'gigabytes': 0, 'snapshots': 0, 'groups': 0}


def test_a_delete_with_volumes_and_an_attachment(aio, admin_http, wait):
    gtype, vtype = gh.group_type(admin_http), gh.volume_type(admin_http)
    for _ in range(3):
        http, session = _user(aio)
        group = gh.group(http, gtype['id'], [vtype['id']])
        volume = gh.volume(http, group['id'], vtype['id'], wait)
        delete, attach = helpers.race([
            lambda: gh.delete_group(session(), group['id'], True),
            lambda: session().post('/attachments', json={'attachment': {
                'volume_uuid': volume['id'],
                'instance_uuid': str(uuid.uuid4())}})])
        codes = (delete.status_code, attach.status_code)
        assert codes in ((202, 400), (400, 200), (202, 404)), (
            delete.text, attach.text)
        if attach.status_code == 200:
            assert http.get('/groups/%s' % group['id']).json()['group'][
                'status'] == 'available'
            assert http.delete('/attachments/%s' % attach.json()[
                'attachment']['id']).ok
            assert gh.delete_group(http, group['id'],
                                   True).status_code == 202
        gh.wait_gone(http, '/groups/%s' % group['id'], wait)
        gh.wait_gone(http, '/volumes/%s' % volume['id'], wait)
        assert gh.usage(http.project) == {
            'volumes': 0, 'gigabytes': 0, 'snapshots': 0, 'groups': 0}


def test_a_volume_made_in_a_group_being_deleted(aio, admin_http, wait):
    gtype, vtype = gh.group_type(admin_http), gh.volume_type(admin_http)
    for _ in range(3):
        http, session = _user(aio)
        group = gh.group(http, gtype['id'], [vtype['id']])
        delete, create = helpers.race([
            lambda: gh.delete_group(session(), group['id']),
            lambda: session().post('/volumes', json={'volume': {
                'size': 1, 'group_id': group['id'],
                'volume_type': vtype['id']}})])
        codes = (delete.status_code, create.status_code)
        assert codes in ((202, 400), (400, 202), (202, 404)), (
            delete.text, create.text)
        members = db_groups.volumes(helpers.admin_context(), group['id'])
        if create.status_code == 202:
            assert [v.id for v in members] == [create.json()['volume']['id']]
            helpers.wait_until_status(http, members[0].id, 'available',
                                      wait)
            assert gh.delete_group(http, group['id'],
                                   True).status_code == 202
        else:
            assert members == []
        gh.wait_gone(http, '/groups/%s' % group['id'], wait)
        assert gh.usage(http.project) == {
            'volumes': 0, 'gigabytes': 0, 'snapshots': 0, 'groups': 0}


def test_two_volumes_of_a_group_deleted_at_once_take_it_with_them(
        aio, admin_http, wait):
    """The last of the group's volumes to go takes the group, whichever
    it is (each holds the group's row before its own goes)."""
    gtype, vtype = gh.group_type(admin_http), gh.volume_type(admin_http)
    http, _session = _user(aio)
    group = gh.group(http, gtype['id'], [vtype['id']])
    volumes = [gh.volume(http, group['id'], vtype['id'], wait)
               for _ in range(4)]
    assert gh.delete_group(http, group['id'], True).status_code == 202
    for volume in volumes:
        gh.wait_gone(http, '/volumes/%s' % volume['id'], wait)
    gh.wait_gone(http, '/groups/%s' % group['id'], wait)
    assert gh.usage(http.project) == {
        'volumes': 0, 'gigabytes': 0, 'snapshots': 0, 'groups': 0}
