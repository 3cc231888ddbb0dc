"""Manila shares on the compute host, without mounting anything: export
locations read, identities checked, keyrings written, the key kept out of
sight. (Mounts are tests/functional/virt/test_libvirt_shares.py's and
tests/functional/share/test_host_mounts.py's.)"""

import os
import stat

import pytest

from tether.compute import share_exception
from tether.drivers.virt import driver
from tether.drivers.virt.libvirt import shares

SHARE_ID = '0b6c2c4e-3f1a-4a51-9d7e-2a4f5b6c7d8e'
KEY = 'AQArRAVrZ7AqLRAAXGgqoueDMwk8NwWY8NqxEg=='
PATH = '/volumes/_nogroup/0a34542f/73a6bdbc'


def _cephfs(export='10.0.0.1:6789:' + PATH, access_to='alice', key=KEY):
    return driver.ShareMount(share_id=SHARE_ID, protocol='CEPHFS',
                             export=export, access_to=access_to,
                             access_key=key)


@pytest.mark.parametrize('export, mons, path', [
    ('10.0.0.1:6789:' + PATH, ['v1:10.0.0.1:6789'], PATH),
    ('10.0.0.1:6789,10.0.0.2:6789,10.0.0.3:6789:' + PATH,
     ['v1:10.0.0.1:6789', 'v1:10.0.0.2:6789', 'v1:10.0.0.3:6789'], PATH),
    # msgr2's port is named v2; a protocol named already is kept.
    ('mon-a.example.org:3300:/volumes/x', ['v2:mon-a.example.org:3300'],
     '/volumes/x'),
    ('v2:10.0.0.1:3300,v1:10.0.0.1:6789:/v/',
     ['v2:10.0.0.1:3300', 'v1:10.0.0.1:6789'], '/v'),
    ('[2001:db8::1]:6789:/volumes/x', ['v1:[2001:db8::1]:6789'],
     '/volumes/x'),
    ('127.0.0.1:34827:/', ['v1:127.0.0.1:34827'], '/'),
])
def test_the_monitors_and_the_path_of_a_cephfs_export(export, mons, path):
    assert shares.cephfs_export(SHARE_ID, export) == (mons, path)


@pytest.mark.parametrize('export, words', [
    ('10.0.0.1:6789', 'is not mon:port[,mon:port]:/path'),
    (':/volumes/x', 'is not mon:port[,mon:port]:/path'),
    ('/volumes/x', 'is not mon:port[,mon:port]:/path'),
    ('10.0.0.1:/volumes/x', "names the monitor '10.0.0.1', not host:port"),
    ('10.0.0.1:6789,:/volumes/x', "names the monitor '', not host:port"),
    ('-o evil:6789:/volumes/x', "names the monitor '-o evil:6789'"),
    ('10.0.0.1:6789:/volumes/../etc', 'is not a plain absolute path'),
    ('10.0.0.1:6789:/volumes/a b', 'is not a plain absolute path'),
])
def test_a_bad_cephfs_export_says_what_is_wrong(export, words):
    with pytest.raises(share_exception.InvalidShareExport) as info:
        shares.cephfs_export(SHARE_ID, export)
    assert str(info.value).startswith(
        'Share %s cannot be mounted: the ' % SHARE_ID)
    assert words in str(info.value)


@pytest.mark.parametrize('export', ['nfs.example.org:/srv/x',
                                    '10.0.0.5:/'])
def test_an_nfs_export(export):
    assert shares.nfs_export(SHARE_ID, export) == export


@pytest.mark.parametrize('export', ['/srv/x', 'host', 'host:srv',
                                    '-o:/x', 'host:/a b'])
def test_a_bad_nfs_export(export):
    with pytest.raises(share_exception.InvalidShareExport,
                       match='is not host:/path'):
        shares.nfs_export(SHARE_ID, export)


@pytest.mark.parametrize('share_id', ['', '.', '..', 'a/b', '../x', '-x'])
def test_a_share_id_is_a_plain_name(share_id, tmp_path):
    with pytest.raises(share_exception.InvalidShareExport, match='plain name'):
        shares.mount_path(str(tmp_path), share_id)


def test_one_directory_per_share_under_the_base():
    assert shares.mount_path('/var/lib/tether/mnt-shares', SHARE_ID) == \
        '/var/lib/tether/mnt-shares/' + SHARE_ID


def test_the_key_is_in_no_repr():
    share = _cephfs()
    assert KEY not in repr(share)
    assert 'access_to=' in repr(share)
    # It is still compared (two different keys: two different mounts).
    assert share != _cephfs(key=KEY.replace('A', 'B'))


@pytest.mark.parametrize('kwargs, words', [
    ({'access_to': None}, 'the cephx user None is not a plain name'),
    ({'access_to': 'a b'}, "the cephx user 'a b' is not a plain name"),
    ({'access_to': 'x\nkey = y'}, 'is not a plain name'),
    ({'key': None}, 'the key of cephx user alice is missing or not base64'),
    ({'key': KEY + '\n[client.admin]'}, 'missing or not base64'),
    ({'key': 'not a key ' + KEY}, 'missing or not base64'),
])
def test_a_bad_identity_is_refused_before_anything_is_written(
        tmp_path, kwargs, words):
    share = _cephfs(**kwargs)
    with pytest.raises(share_exception.InvalidShareExport) as info:
        shares.mount(share, str(tmp_path))
    assert words in str(info.value)
    assert KEY not in str(info.value) and KEY not in repr(info.value)
    assert os.listdir(tmp_path) == []


def test_a_bad_protocol_or_export_is_refused_before_anything_is_made(
        tmp_path):
    with pytest.raises(share_exception.InvalidShareExport,
                       match="protocol 'CIFS' is not one of CEPHFS, NFS"):
        shares.mount(driver.ShareMount(SHARE_ID, 'CIFS', r'\\srv\x'),
                     str(tmp_path))
    with pytest.raises(share_exception.InvalidShareExport, match='host:/path'):
        shares.mount(driver.ShareMount(SHARE_ID, 'NFS', '/srv/x'),
                     str(tmp_path))
    with pytest.raises(share_exception.InvalidShareExport, match='host:port'):
        shares.mount(_cephfs(export='mon:/x'), str(tmp_path))
    assert os.listdir(tmp_path) == []


def test_the_keyring_is_for_root_alone_and_replaced_whole(tmp_path):
    path = shares.keyring_path(str(tmp_path), SHARE_ID)
    shares._write_keyring(path, 'alice', KEY)
    with open(path) as f:
        assert f.read() == '[client.alice]\n\tkey = %s\n' % KEY
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(os.path.dirname(path)).st_mode) == 0o700
    inode = os.stat(path).st_ino
    shares._write_keyring(path, 'bob', 'QUJD')
    with open(path) as f:
        assert f.read() == '[client.bob]\n\tkey = QUJD\n'
    # A new file renamed into place, not the old one rewritten.
    assert os.stat(path).st_ino != inode
    assert os.listdir(os.path.dirname(path)) == [SHARE_ID + '.keyring']


def test_a_share_that_is_not_mounted_unmounts_as_a_no_op(tmp_path):
    base = str(tmp_path)
    os.makedirs(os.path.join(base, SHARE_ID))
    shares._write_keyring(shares.keyring_path(base, SHARE_ID), 'alice', KEY)
    assert shares.umount(SHARE_ID, base) is False
    assert not os.path.exists(os.path.join(base, SHARE_ID))
    assert not os.path.exists(shares.keyring_path(base, SHARE_ID))
    assert shares.umount(SHARE_ID, base) is False


def test_mount_points_are_read_from_the_mount_table():
    assert shares.is_mounted('/proc')
    assert not shares.is_mounted('/proc/self')
    assert shares._unescape(r'/srv/a\040b\011c') == '/srv/a b\tc'
