"""Volumes of the NFS connection type as files on a mounted share.

The connection info comes from the volume service::

    {'driver_volume_type': 'nfs',
     'data': {'export': 'host:/path' or '/local/dir', 'name': 'volume-<id>',
              'format': 'raw' | 'qcow2', 'options': '-o ...' or None,
              'access_mode': 'rw' | 'ro',
              'qos_specs': {'total_bytes_sec': '...', ...} or None}}

An export that is an absolute path is a directory used as an
already-mounted share (the embedded default and the tests); any other
export is mounted under the mount point base, at the same place the volume
service's NFS driver mounts it.
"""

import hashlib
import os
import stat

from oslo_concurrency import lockutils
from oslo_concurrency import processutils
from oslo_log import log as logging

from tether.compute import exception
from tether.drivers.virt.libvirt import config

LOG = logging.getLogger(__name__)
DRIVER_VOLUME_TYPES = ('nfs',)
ACCESS_MODES = ('rw', 'ro')
# The QoS keys a disk's <iotune> takes, as Nova's libvirt driver maps
# them (each becomes the element of its name); other keys are the
# backend's, or unknown here, and are left out.
IOTUNE_KEYS = ('total_bytes_sec', 'read_bytes_sec', 'write_bytes_sec',
               'total_iops_sec', 'read_iops_sec', 'write_iops_sec',
               'read_bytes_sec_max', 'read_iops_sec_max',
               'write_bytes_sec_max', 'write_iops_sec_max',
               'total_bytes_sec_max', 'total_iops_sec_max',
               'size_iops_sec')


def _data(connection_info):
    if not isinstance(connection_info, dict):
        raise exception.InvalidConnectionInfo(reason='not a mapping')
    kind = connection_info.get('driver_volume_type')
    if kind not in DRIVER_VOLUME_TYPES:
        raise exception.InvalidConnectionInfo(
            reason='driver_volume_type %r is not one of %s'
                   % (kind, ', '.join(DRIVER_VOLUME_TYPES)))
    data = connection_info.get('data')
    if not isinstance(data, dict):
        raise exception.InvalidConnectionInfo(reason='no data')
    for key in ('export', 'name'):
        if not isinstance(data.get(key), str) or not data[key]:
            raise exception.InvalidConnectionInfo(
                reason='data.%s is missing' % key)
    name = data['name']
    if name in ('.', '..') or os.path.basename(name) != name:
        raise exception.InvalidConnectionInfo(
            reason='data.name %r is not a file name' % name)
    return data


def is_local_export(export):
    return export.startswith('/')


def mount_point_for(export, mount_base):
    if is_local_export(export):
        return export
    digest = hashlib.sha256(export.encode()).hexdigest()[:32]
    return os.path.join(mount_base, digest)


def disk_path(connection_info, mount_base):
    """Where the volume's file is on this host (the share may be unmounted)."""
    data = _data(connection_info)
    return os.path.join(mount_point_for(data['export'], mount_base),
                        data['name'])


def volume_id(connection_info):
    """The volume's ID: ``serial`` if the caller set it, else from the name."""
    data = _data(connection_info)
    serial = connection_info.get('serial') or data.get('volume_id')
    if serial:
        return serial
    name = data['name']
    return name[len('volume-'):] if name.startswith('volume-') else name


def iotune(connection_info):
    """((name, value), ...) of the disk's ``<iotune>``: the keys of the
    connection's ``data.qos_specs`` that libvirt applies, each a
    non-negative integer (another value is logged and left out, as
    libvirt would refuse the whole disk)."""
    specs = _data(connection_info).get('qos_specs')
    if not specs:
        return ()
    if not isinstance(specs, dict):
        LOG.warning('Unknown content in connection_info/qos_specs: %r',
                    type(specs).__name__)
        return ()
    tune = []
    for name in IOTUNE_KEYS:
        if name not in specs:
            continue
        try:
            value = int(str(specs[name]).strip())
        except ValueError:
            value = -1
        if value < 0:
            LOG.warning('QoS key %s=%r is not a non-negative integer; '
                        'not applied', name, specs[name])
            continue
        tune.append((name, value))
    return tuple(tune)


def raw_file_size(disk):
    """The size in bytes of a raw disk's file (a ``parse.DiskInfo``): for
    raw, the size the guest sees, read without asking QEMU; None for any
    other disk (qcow2, a block device) or a file that cannot be read."""
    if disk.fmt != 'raw' or not disk.source:
        return None
    try:
        found = os.stat(disk.source)
    except OSError:
        return None
    return found.st_size if stat.S_ISREG(found.st_mode) else None


def disk_spec(connection_info, path, target):
    """The :class:`config.Disk` of a volume at ``path`` named ``target``."""
    data = _data(connection_info)
    fmt = data.get('format') or 'raw'
    if fmt not in config.DISK_FORMATS:
        raise exception.InvalidConnectionInfo(
            reason='data.format %r is not one of %s'
                   % (fmt, ', '.join(config.DISK_FORMATS)))
    mode = data.get('access_mode') or 'rw'
    if mode not in ACCESS_MODES:
        raise exception.InvalidConnectionInfo(
            reason='data.access_mode %r is not rw or ro' % mode)
    return config.Disk(path=path, fmt=fmt, target=target,
                       serial=volume_id(connection_info),
                       readonly=mode == 'ro',
                       iotune=iotune(connection_info))


def connect(connection_info, mount_base, mount_options=None):
    """Make the volume's file reachable (mount its export); return its path.

    ``mount_options`` apply when the connection info names none.
    """
    data = _data(connection_info)
    export = data['export']
    mount_point = mount_point_for(export, mount_base)
    if not is_local_export(export):
        with lockutils.lock('tether-nfs-mount-' + mount_point):
            if not os.path.ismount(mount_point):
                _mount(export, mount_point,
                       data.get('options') or mount_options)
    return os.path.join(mount_point, data['name'])


def _mount(export, mount_point, options):
    os.makedirs(mount_point, exist_ok=True)
    cmd = ['mount', '-t', 'nfs']
    if options:
        # Cinder's connection info carries options as "-o a,b"; the
        # configuration option as "a,b".
        options = options.strip()
        if options.startswith('-o'):
            options = options[2:].strip()
        cmd += ['-o', options]
    try:
        processutils.execute(*(cmd + [export, mount_point]))
    except processutils.ProcessExecutionError as exc:
        raise exception.VolumeShareNotMounted(
            export=export, reason=(exc.stderr or str(exc)).strip())
