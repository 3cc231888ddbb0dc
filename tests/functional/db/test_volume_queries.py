"""Queries of tether.db.volume.volume against the real database."""

import uuid

from tests.functional import helpers
from tether.db.volume import volume_type as volume_types
from tether.db.volume import volume as db_volumes


def _row(host, status='creating', size=1):
    ctx = helpers.admin_context()
    return db_volumes.create(ctx, {
        'id': str(uuid.uuid4()), 'project_id': 'p-' + uuid.uuid4().hex[:8],
        # A whole volume (an admin's list of every project's shows it).
        'user_id': 'queries', 'availability_zone': 'nova',
        'host': host, 'size': size, 'status': status,
        'attach_status': 'detached', 'bootable': False,
        'multiattach': False,
        'volume_type_id': volume_types.get_by_name_or_id(
            ctx, '__DEFAULT__').id}).id


def test_a_backend_finds_only_its_own_volumes(aio):
    """Regression: host names are not LIKE patterns.

    ``_`` and ``%`` in a host name matched any character, so a backend
    reconciled (and counted the capacity of) another host's volumes.
    """
    tag = uuid.uuid4().hex[:6]
    mine = 'host_%s@b' % tag
    own = {_row(mine), _row(mine + '#pool1'), _row(mine + '#pool2', size=2)}
    _row('hostX%s@b#pool1' % tag)          # '_' would match 'X'
    _row('host_%s@b2#pool1' % tag)         # another backend of the host
    _row(mine + '#pool1', status='available')
    ctx = helpers.admin_context()
    found = db_volumes.get_all_by_host(ctx, mine, ['creating'])
    assert {v.id for v in found} == own
    assert db_volumes.allocated_gb_by_pool(ctx, mine) == {
        '': 1, 'pool1': 2, 'pool2': 2}
    percent = 'h%%%s@b' % tag
    _row('hXY%s@b#p' % tag)
    assert db_volumes.get_all_by_host(ctx, percent, ['creating']) == []
