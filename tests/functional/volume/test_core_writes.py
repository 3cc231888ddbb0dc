"""The conditional UPDATE and DELETE of tether.db.cas, and the volume
lock of an attachment's transition, run as Core statements on the
transaction's connection (not through the ORM session's execute, which
flushes what the session holds first): they still see every row their
transaction added through the session, flushed or not. Against the
aio's real database."""

import uuid

import sqlalchemy as sa

from tests.functional import helpers
from tether.db import cas
from tether.db.volume import attachment as db_attachments
from tether.db.volume import models
from tether.db import session as db_session
from tether.volume import attachment_state as state

A = models.VolumeAttachment


def _rows(volume_id):
    with db_session.VOLUME.get_engine().connect() as conn:
        return list(conn.execute(
            sa.select(A.id, A.attach_status).where(A.volume_id == volume_id)))


def test_a_transition_sees_the_rows_its_transaction_added(aio, wait):
    http = aio.http()
    volume = helpers.create_volume(http, wait_for=wait)
    attachment_id = str(uuid.uuid4())
    seen = {}

    @db_session.VOLUME.writer
    def transaction(context):
        volume_row = db_attachments.lock_volume(context, volume['id'])
        # Added to the session, not flushed.
        context.session.add(A(id=attachment_id, volume_id=volume['id'],
                              project_id=volume_row.project_id,
                              attach_status='reserved'))
        seen['statuses'] = db_attachments.statuses_of_volume(
            context, volume['id'])
        seen['updated'] = cas.update(
            context, A, [A.id == attachment_id,
                         A.attach_status.in_(['reserved'])],
            {'attach_status': 'attaching'})
        seen['status'] = state.recompute(context, volume['id'])
        seen['deleted'] = cas.delete(
            context, A, [A.id == attachment_id,
                         A.attach_status.in_(['attaching'])])
        seen['after'] = state.recompute(context, volume['id'])

    transaction(helpers.admin_context())
    assert seen == {'statuses': ['reserved'], 'updated': True,
                    'status': 'attaching', 'deleted': True,
                    'after': 'available'}
    assert _rows(volume['id']) == []
    assert http.get('/volumes/%s' % volume['id']).json()['volume'][
        'status'] == 'available'


def test_a_lost_condition_changes_nothing(aio, wait):
    http = aio.http()
    volume = helpers.create_volume(http, wait_for=wait)

    @db_session.VOLUME.writer
    def transaction(context):
        return (cas.update(context, models.Volume,
                           [models.Volume.id == volume['id'],
                            models.Volume.status.in_(['in-use'])],
                           {'status': 'error'}),
                cas.delete(context, models.Volume,
                           [models.Volume.id == volume['id'],
                            models.Volume.status.in_(['deleting'])]))

    assert transaction(helpers.admin_context()) == (False, False)
    assert http.get('/volumes/%s' % volume['id']).json()['volume'][
        'status'] == 'available'
