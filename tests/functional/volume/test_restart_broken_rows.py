"""A volume that cannot be taken up does not stop the volume service.

The restart of test_restart, with one volume of each pair broken in the
real database in a way tether's own code cannot get past: a volume left
``deleting`` that still has an attachment row (the attachments' foreign
key holds the volume's row: the delete's last transaction fails with the
database's IntegrityError). The service starts, the good volume is taken
up, the broken one is logged with its id and what it was left doing, and
stays as it was for the periodic re-drive or an administrator.
"""

import datetime
import json
import logging
import os
import re

from oslo_utils import timeutils

from tests.functional import helpers
from tests.functional.volume import group_helpers as gh
from tests.functional.volume import snapshot_helpers
from tether.db import session
from tether.db.volume import attachment as db_attachments
from tether.db.volume import group_snapshot as db_group_snapshots
from tether.db.volume import volume as db_volumes


def _tallied(log, what):
    """The pass over ``what``s logged that one could not be taken up and
    that it took up at least this test's good one (rows that other tests
    of the same aio left, which this test did not make, count too)."""
    match = re.search(r'of (\d+) %ss left mid-operation, (\d+) were taken '
                      r'up and 1 could not be' % what, log)
    assert match, log
    found, taken_up = map(int, match.groups())
    assert found >= 2 and taken_up >= 1, match.group(0)


def _set_status(volume_id, status, **values):
    assert db_volumes.conditional_update(
        helpers.admin_context(), volume_id, dict(values, status=status),
        None)


def _broken_delete(http, volume, **values):
    """``deleting`` with an attachment row left (os-reserve's, made
    through the API before the state was forced)."""
    resp = http.post('/attachments', json={'attachment': {
        'volume_uuid': volume['id']}})
    assert resp.status_code == 200, resp.text
    _set_status(volume['id'], 'deleting', **values)
    return resp.json()['attachment']


def _still_deleting(http, volume, attachment):
    shown = http.get('/volumes/%s' % volume['id']).json()['volume']
    assert shown['status'] == 'deleting'
    assert db_attachments.get(helpers.admin_context(), attachment['id'])


def _clean_up(aio, wait, volume, attachment):
    """What an administrator does: the attachment goes, then the
    volume."""
    admin = aio.http('admin', 'admin', version='3.44')
    assert admin.delete('/attachments/%s' % attachment['id']
                        ).status_code == 200
    _set_status(volume['id'], 'error')
    assert admin.delete('/volumes/%s' % volume['id']).status_code == 202
    wait(lambda: helpers.db_volume(volume['id']) is None, what='delete')


def test_a_volume_that_cannot_be_taken_up_does_not_stop_the_start(
        aio, wait, caplog):
    caplog.set_level(logging.INFO, logger='tether')
    http = aio.http(version='3.44')
    good = helpers.create_volume(http, size=1, wait_for=wait)
    broken = helpers.create_volume(http, size=2, wait_for=wait)
    assert helpers.usage(http.project) == {'volumes': (2, 0),
                                           'gigabytes': (3, 0)}
    attachments = {}

    def crash():
        # The broken one first, in the order the service reads them.
        attachments['broken'] = _broken_delete(http, broken)
        _set_status(good['id'], 'deleting')

    aio.restart_volume_service(before_start=crash)

    # The service started: the good volume is deleted, its quota back.
    assert http.get('/volumes/%s' % good['id']).status_code == 404
    assert not os.path.exists(aio.volume_path(good['id']))
    # The broken one is logged with its id and what it was left doing,
    # and stays as it was (its quota too).
    assert ('Could not take up volume %s, left deleting: it stays '
            'deleting' % broken['id']) in caplog.text
    assert 'IntegrityError' in caplog.text
    _tallied(caplog.text, 'volume')
    _still_deleting(http, broken, attachments['broken'])
    assert helpers.usage(http.project) == {'volumes': (1, 0),
                                           'gigabytes': (2, 0)}
    # The restarted service serves new requests.
    helpers.create_volume(http, size=1, wait_for=wait)
    _clean_up(aio, wait, broken, attachments['broken'])


def _long_ago():
    return timeutils.utcnow() - datetime.timedelta(seconds=200)


def test_the_redrive_goes_on_past_a_volume_it_cannot_take_up(
        aio, wait, caplog):
    """The periodic re-drive: the stale volume after the broken one is
    taken up; the broken one stays stale, and the next round comes back
    to it (its failed transaction left it unchanged)."""
    caplog.set_level(logging.INFO, logger='tether')
    http = aio.http(version='3.44')
    broken = helpers.create_volume(http, size=2, wait_for=wait)
    good = helpers.create_volume(http, size=1, wait_for=wait)
    attachment = _broken_delete(http, broken, updated_at=_long_ago())
    _set_status(good['id'], 'deleting', updated_at=_long_ago())

    manager = aio.impl.volume_service.backends[0].manager
    ctx = helpers.admin_context()
    assert manager.redrive_stale_operations(ctx, timeout=100) == 1
    assert http.get('/volumes/%s' % good['id']).status_code == 404
    assert ('Could not take up stale volume %s, left deleting'
            % broken['id']) in caplog.text
    _still_deleting(http, broken, attachment)

    # The next round finds it again (and fails again, logged again).
    caplog.clear()
    assert manager.redrive_stale_operations(ctx, timeout=100) == 0
    assert ('Could not take up stale volume %s, left deleting'
            % broken['id']) in caplog.text
    _still_deleting(http, broken, attachment)
    _clean_up(aio, wait, broken, attachment)


# Attachments, snapshots, group snapshots ------------------------------------
#
# Their flows catch every failure of the driver (the row goes to an error
# status); what can still raise out of their take-up is the database
# itself (a lost connection, a lock, a constraint) or tether's own bug.
# No row tether can write fails them, so the database is made to refuse
# one row: a trigger of the real SQLite database that aborts every UPDATE
# of that row (a fault injected at the process's edge; tether's code is
# not touched).

def _left_attaching(http, volume):
    """An attachment whose connect was claimed and never reached the
    driver (as test_attachment_recovery leaves one)."""
    resp = http.post('/attachments', json={'attachment': {
        'volume_uuid': volume['id']}})
    assert resp.status_code == 200, resp.text
    attachment = resp.json()['attachment']
    ctx = helpers.admin_context()
    assert db_attachments.conditional_update(
        ctx, attachment['id'],
        {'attach_status': 'attaching', 'attached_host': 'h',
         'connector': json.dumps({'host': 'h'})}, ['reserved'])
    assert db_volumes.conditional_update(
        ctx, volume['id'], {'status': 'attaching'}, ['reserved'])
    return attachment


def _group_snapshots(aio, http, wait):
    """Two group snapshots of a group of two volumes, taken."""
    admin = aio.http('admin', 'admin', version=gh.VERSION)
    gtype = gh.group_type(admin)
    vtype = gh.volume_type(admin)
    group = gh.group(http, gtype['id'], [vtype['id']], wait_for=wait)
    for size in (1, 2):
        gh.volume(http, group['id'], vtype['id'], wait, size=size)
    return [gh.group_snapshot(http, group['id'], wait_for=wait)
            for _ in range(2)]


def test_attachments_snapshots_and_group_snapshots_it_cannot_take_up(
        aio, wait, caplog):
    caplog.set_level(logging.INFO, logger='tether')
    http = aio.http(version=gh.VERSION)
    volumes = [helpers.create_volume(http, size=1, wait_for=wait)
               for _ in range(4)]
    volumes = [http.get('/volumes/%s' % v['id']).json()['volume']
               for v in volumes]
    group_snapshots = _group_snapshots(aio, http, wait)
    good, broken = {}, {}
    triggers = []

    def crash():
        for left, (a, b) in ((good, volumes[:2]), (broken, volumes[2:])):
            left['attachment'] = _left_attaching(http, a)['id']
            left['snapshot'] = snapshot_helpers.insert_creating(
                helpers.admin_context(), b).id
        for left, group_snapshot in zip((good, broken), group_snapshots):
            left['group_snapshot'] = group_snapshot['id']
            # Its snapshots were taken; the end of its create was not
            # recorded.
            assert db_group_snapshots.conditional_update(
                helpers.admin_context(), group_snapshot['id'],
                {'status': 'creating'}, ['available'])
        triggers.extend(
            helpers.refuse_row(session.VOLUME, 'UPDATE', table, broken[kind])
            for table, kind in (('volume_attachment', 'attachment'),
                                ('snapshots', 'snapshot'),
                                ('group_snapshots', 'group_snapshot')))

    try:
        aio.restart_volume_service(before_start=crash)

        # The service started and took up the good ones.
        def status(path, key):
            return http.get(path).json()[key]['status']

        # (path, key, a good row's status after, a broken one's)
        kinds = (('/attachments/%s', 'attachment', 'error_attaching',
                  'attaching'),
                 ('/snapshots/%s', 'snapshot', 'available', 'creating'),
                 ('/group_snapshots/%s', 'group_snapshot', 'available',
                  'creating'))
        for path, key, taken_up, _left in kinds:
            assert status(path % good[key], key) == taken_up
        # The broken ones are logged, and stay as they were.
        for what, key, left in (('attachment', 'attachment', 'attaching'),
                                ('snapshot', 'snapshot', 'creating'),
                                ('group snapshot', 'group_snapshot',
                                 'creating')):
            assert ('Could not take up %s %s, left %s: it stays %s'
                    % (what, broken[key], left, left)) in caplog.text
            _tallied(caplog.text, what)
        for path, key, _taken_up, left in kinds:
            assert status(path % broken[key], key) == left
        assert 'this row is broken' in caplog.text
    finally:
        helpers.drop_refusals(session.VOLUME, triggers)

    # Mended, they are taken up at the next start.
    aio.restart_volume_service()
    assert status('/attachments/%s' % broken['attachment'],
                  'attachment') == 'error_attaching'
    assert status('/snapshots/%s' % broken['snapshot'],
                  'snapshot') == 'available'
    assert status('/group_snapshots/%s' % broken['group_snapshot'],
                  'group_snapshot') == 'available'
