"""A restarted tether-compute settles each volume left mid-attach on its
own: one that cannot be settled does not keep the others of its server
(nor the server) from being settled.

The crash is simulated as in test_restart: tether-compute is stopped, and
what an attach leaves when the manager dies after the API's claim is
written: the volume's attachment reserved through the volume API (as the
compute API reserves it) and a block device mapping ``attaching``
through the compute database layer. One mapping is made impossible to
delete in the real database (a SQLite trigger refuses the DELETE of its
row), a failure tether's own code cannot get past.
"""

import logging

import pytest

from tests.functional.compute import server_helpers as sh
from tests.functional import helpers
from tether.compute import exception
from tether.db.compute import block_device_mapping as db_bdms
from tether.db.compute.models import instances as models
from tether.db import session

TABLE = models.BlockDeviceMapping.__tablename__


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def _left_attaching(user, server_id, volume, device):
    """The reserved attachment and the ``attaching`` mapping of an attach
    whose cast died with tether-compute."""
    resp = user.volumes().post('/attachments', json={'attachment': {
        'volume_uuid': volume['id'], 'instance_uuid': server_id}})
    assert resp.status_code == 200, resp.text
    attachment = resp.json()['attachment']
    assert attachment['status'] == 'reserved'
    return db_bdms.create(helpers.admin_context(), server_id,
                          db_bdms.new_values(
                              volume['id'], status='attaching',
                              attachment_id=attachment['id'],
                              device_name=device, source_type='volume',
                              destination_type='volume'))


def _mapping(server_id, volume_id):
    """The volume's mapping on the server, or None."""
    try:
        return db_bdms.get_by_volume(helpers.admin_context(), server_id,
                                     volume_id)
    except exception.VolumeAttachmentNotFound:
        return None


def test_one_volume_that_cannot_be_settled_does_not_stop_the_others(
        cloud, caplog):
    caplog.set_level(logging.INFO, logger='tether')
    user = cloud.project()
    server = user.boot()
    broken, good = user.volume(), user.volume()
    made = {}
    trigger = None

    def while_down():
        nonlocal trigger
        # The broken one first: the host meets it before the good one.
        made['broken'] = _left_attaching(user, server.id, broken, '/dev/sdb')
        made['good'] = _left_attaching(user, server.id, good, '/dev/sdc')
        assert made['broken'].id < made['good'].id
        trigger = helpers.refuse_row(session.COMPUTE, 'DELETE', TABLE,
                                     made['broken'].id)

    try:
        user.aio.restart_compute_service(while_down)
        # The good one is undone whole: its attachment deleted, the
        # volume free, its mapping gone.
        user.wait(lambda: user.show_volume(good['id'])['status']
                  == 'available' and not user.attachments(good['id']),
                  what='the good attach undone')
        user.assert_free(good['id'])
        user.wait(lambda: _mapping(server.id, good['id']) is None,
                  what='the good mapping gone')
        # The broken one is logged, with its volume and server, and its
        # mapping stays as it was left.
        user.wait(lambda: 'Could not settle volume %s of instance %s, left '
                  'attaching' % (broken['id'], server.id) in caplog.text,
                  what='the broken volume logged')
        left = _mapping(server.id, broken['id'])
        assert left is not None and left.status == 'attaching'
        # The server itself is settled and served.
        shown = user.wait_server(server.id)
        assert shown.task_state is None
        attached = {v['id'] for v in user.server(server.id)[
            'os-extended-volumes:volumes_attached']}
        assert good['id'] not in attached
    finally:
        if trigger:
            helpers.drop_refusals(session.COMPUTE, [trigger])
    # What an administrator does once the cause is fixed: the mapping goes.
    db_bdms.destroy(helpers.admin_context(), made['broken'].id)
    user.assert_free(broken['id'])
