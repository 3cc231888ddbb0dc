"""Backups of a volume attached to a running guest (``force``), seen from
inside the guest.

As Cinder backs up an in-use volume, tether-backup reads it through a
temporary snapshot, which the guest's compute host takes (and merges
away after) while the guest runs (assisted snapshots). The tiny guest
(tools/guest/) writes a line at the start of the volume; a backup is
made; the guest writes another line; an incremental backup is made.
Each backup, restored into a new volume attached to the same guest,
holds the line the guest had written when it was made; the guest kept
running and reads its own last line. Real HTTP, RPC, libvirt, QEMU
(TCG), qemu-img and the posix backup driver throughout.
"""

import uuid

from oslo_config import cfg
import pytest

from tests.functional.compute import server_helpers as sh
from tests.functional.compute import test_real_guest_snapshots as guest
from tests.functional import guest_console
from tests.functional import image_helpers
from tests.functional.volume import backup_helpers as bh

CONF = cfg.CONF
MARKER = guest.MARKER
FLAVOR = guest.FLAVOR
VERSION = '3.71'


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def _backup(user, volume_id, wait, **attrs):
    http = user.volumes(VERSION)
    made = bh.backup(http, volume_id, force=True, **attrs)
    # The volume is being backed up (its status kept as its previous
    # one), then in-use again.
    done = bh.wait_status(http, made['id'], 'available', wait, timeout=120)
    user.wait_volume(volume_id, 'in-use')
    return done


def _restored(user, console, server, backup, wait):
    """A new volume of the backup, attached to the guest; its disk."""
    http = user.volumes(VERSION)
    made = bh.restore(http, backup['id'])
    user.cloud.volumes.append((user, made['volume_id']))
    user.wait_volume(made['volume_id'], 'available')
    return guest._attach(user, console, server, made['volume_id'])


def _no_temporary_snapshot(user, volume_id, wait):
    http = user.volumes(VERSION)
    wait(lambda: http.get('/snapshots?volume_id=%s' % volume_id).json()[
        'snapshots'] == [], timeout=120, what='temporary snapshot gone')


def test_backups_of_a_volume_the_guest_writes(cloud, guest_images, wait):
    user = cloud.project()
    image = image_helpers.upload_file(user.conn, guest_images[MARKER])
    root = user.volume(size=1, image_id=image.id)
    server = user.boot(root, flavor=FLAVOR)
    console = guest_console.GuestConsole(user.conn, server)
    console.wait_up(MARKER)
    data = user.volume(size=1)
    disk = guest._attach(user, console, server, data['id'])
    first, second = ('first-%s' % uuid.uuid4().hex[:8],
                     'second-%s' % uuid.uuid4().hex[:8])

    # Without force, an in-use volume is not backed up.
    resp = user.volumes(VERSION).post('/backups', json={'backup': {
        'volume_id': data['id']}})
    assert 'force flag' in bh.error(resp, 400)

    guest._write(console, disk, first)
    full = _backup(user, data['id'], wait, name='full')
    _no_temporary_snapshot(user, data['id'], wait)
    guest._write(console, disk, second)
    inc = _backup(user, data['id'], wait, name='inc', incremental=True)
    assert inc['is_incremental']
    _no_temporary_snapshot(user, data['id'], wait)
    assert guest._read(console, disk) == second

    full_disk = _restored(user, console, server, full, wait)
    assert guest._read(console, full_disk) == first
    inc_disk = _restored(user, console, server, inc, wait)
    assert guest._read(console, inc_disk) == second
    # The guest ran on throughout, and reads what it wrote last.
    assert guest._read(console, disk) == second
    assert user.show_volume(data['id'])['status'] == 'in-use'
    assert bh.usage(user.project)['backups'] == 2
