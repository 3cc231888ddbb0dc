"""Pure builders of libvirt domain and device XML (the libvirt config layer).

Nothing here talks to libvirt: every function takes plain values and returns
an ``xml.etree.ElementTree.Element`` (or its text, with :func:`to_xml`),
except :func:`with_filesystems`, which edits the text of a definition.

The guests tether runs need no operating system, though they may have one:
without one QEMU starts, sits in the firmware and holds its disks open,
which is all the volume flows need. So the domain has no graphics
(``<graphics type='none'/>`` is not valid XML: a guest without graphics
simply has no ``<graphics>``), no video model, no memory balloon and no USB
controller, and its disks sit on one virtio-scsi controller, because a SCSI
disk detaches at once while a virtio-blk detach waits for a guest OS to
release it. Its one window is the serial console, which libvirt logs to a
file (:func:`serial_console`).
"""

import dataclasses
import string
import xml.etree.ElementTree as ET

DISK_PREFIX = 'sd'
SCSI_BUS = 'scsi'
SCSI_CONTROLLER = 0
# Each disk is one LUN (``unit``) of target 0 of the virtio-scsi controller;
# the LUN is the index of its name (sda is 0). virtio-scsi allows 16384
# LUNs per target; this is the number tether hands out.
MAX_DISKS = 256
DISK_FORMATS = ('raw', 'qcow2')

_LETTERS = string.ascii_lowercase


@dataclasses.dataclass(frozen=True)
class Disk:
    """A file disk of a guest: a volume, or the local root disk of a
    server from an image (a qcow2 overlay on the cached image)."""
    path: str
    fmt: str
    target: str
    serial: str = None
    readonly: bool = False
    # The disk's place in the boot order (1: the guest boots from it).
    boot_order: int = None
    # ((name, value), ...): the disk's I/O limits, libvirt's <iotune>
    # elements (total_bytes_sec, read_iops_sec ...), in this order.
    iotune: tuple = ()


# Disk names ---------------------------------------------------------------

def disk_name(index):
    """``sda`` for 0, ``sdz`` for 25, ``sdaa`` for 26 (as Linux names them)."""
    if not 0 <= index < MAX_DISKS:
        raise ValueError('disk index %s is out of range 0..%s'
                         % (index, MAX_DISKS - 1))
    letters = ''
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = _LETTERS[rest] + letters
    return DISK_PREFIX + letters


def disk_index(name):
    """The inverse of :func:`disk_name`; ValueError for another name."""
    letters = name[len(DISK_PREFIX):]
    if (not name.startswith(DISK_PREFIX) or not letters
            or any(c not in _LETTERS for c in letters)):
        raise ValueError('%r is not a SCSI disk name' % name)
    index = 0
    for c in letters:
        index = index * 26 + _LETTERS.index(c) + 1
    return index - 1


def next_free_disk(used):
    """The first disk name not in ``used`` (names of any bus)."""
    for index in range(MAX_DISKS):
        name = disk_name(index)
        if name not in used:
            return name
    raise ValueError('all %s disk names are in use' % MAX_DISKS)


# Devices ------------------------------------------------------------------

def _sub(parent, tag, text=None, **attrs):
    el = ET.SubElement(parent, tag, {k: str(v) for k, v in attrs.items()})
    if text is not None:
        el.text = str(text)
    return el


def disk(spec):
    """A ``<disk type='file'>`` on the virtio-scsi controller."""
    if spec.fmt not in DISK_FORMATS:
        raise ValueError('unsupported disk format %r' % spec.fmt)
    el = ET.Element('disk', type='file', device='disk')
    _sub(el, 'driver', name='qemu', type=spec.fmt)
    _sub(el, 'source', file=spec.path)
    _sub(el, 'target', dev=spec.target, bus=SCSI_BUS)
    if spec.serial:
        _sub(el, 'serial', spec.serial)
    if spec.readonly:
        _sub(el, 'readonly')
    if spec.iotune:
        tune = _sub(el, 'iotune')
        for name, value in spec.iotune:
            _sub(tune, name, value)
    if spec.boot_order is not None:
        _sub(el, 'boot', order=spec.boot_order)
    _sub(el, 'address', type='drive', controller=SCSI_CONTROLLER, bus=0,
         target=0, unit=disk_index(spec.target))
    return el


def scsi_controller(index=SCSI_CONTROLLER):
    return ET.Element('controller', type='scsi', model='virtio-scsi',
                      index=str(index))


def filesystem(source_dir, tag, queue_size=1024):
    """A virtio-fs share: ``source_dir`` on the host, mounted by ``tag``.

    libvirt runs virtiofsd for it; the domain needs shared memory
    (:func:`memory_backing`).
    """
    el = ET.Element('filesystem', type='mount', accessmode='passthrough')
    _sub(el, 'driver', type='virtiofs', queue=queue_size)
    _sub(el, 'source', dir=source_dir)
    _sub(el, 'target', dir=tag)
    return el


def memory_backing(source='file', shared=True, discard=False):
    """``<memoryBacking>``: guest memory from files (or memfd), shared.

    virtio-fs needs ``shared``; ``discard`` frees the backing file's pages
    when the guest stops (file-backed memory).
    """
    if source not in ('file', 'memfd', 'anonymous'):
        raise ValueError('unsupported memory source %r' % source)
    el = ET.Element('memoryBacking')
    _sub(el, 'source', type=source)
    if shared:
        _sub(el, 'access', mode='shared')
    if discard:
        _sub(el, 'discard')
    return el


def serial_console(log_path):
    """The guest's serial port 0 on a pty, logged to ``log_path``, and the
    ``<console>`` that names it (what Nova's libvirt driver makes).

    libvirt (virtlogd) writes everything the guest prints to the file,
    which is truncated when the guest starts (``append='off'``); the pty
    stays unopened, and QEMU drops its output when no one has it open.
    """
    serial = ET.Element('serial', type='pty')
    _sub(serial, 'log', file=log_path, append='off')
    _sub(serial, 'target', port=0)
    console = ET.Element('console', type='pty')
    _sub(console, 'target', type='serial', port=0)
    return [serial, console]


# The domain ---------------------------------------------------------------

def domain(name, uuid, memory_mib, vcpus, disks=(), filesystems=(),
           virt_type='qemu', machine='q35', cpu_model='qemu64',
           memory_backing=None, title=None, console_log=None):
    """A whole domain: no graphics, disks on virtio-scsi.

    ``disks`` are :class:`Disk` values (one with a ``boot_order`` makes
    the boot order per device), ``filesystems`` elements from
    :func:`filesystem`, ``memory_backing`` an element from
    :func:`memory_backing` (or None). With ``cpu_model`` None the guest gets
    the host's CPU model (``host-model``, for KVM). With ``console_log``,
    the serial console is logged to that file (:func:`serial_console`).
    """
    if memory_mib < 1 or vcpus < 1:
        raise ValueError('a domain needs memory and a vCPU')
    root = ET.Element('domain', type=virt_type)
    _sub(root, 'name', name)
    _sub(root, 'uuid', uuid)
    if title:
        _sub(root, 'title', title)
    _sub(root, 'memory', memory_mib, unit='MiB')
    if memory_backing is not None:
        root.append(memory_backing)
    _sub(root, 'vcpu', vcpus)
    os_el = _sub(root, 'os')
    _sub(os_el, 'type', 'hvm', arch='x86_64', machine=machine)
    if not any(spec.boot_order is not None for spec in disks):
        # libvirt refuses a per-device boot order beside this one.
        _sub(os_el, 'boot', dev='hd')
    _sub(_sub(root, 'features'), 'acpi')
    if cpu_model:
        cpu = _sub(root, 'cpu', mode='custom', match='exact')
        _sub(cpu, 'model', cpu_model, fallback='allow')
    else:
        _sub(root, 'cpu', mode='host-model')
    _sub(root, 'clock', offset='utc')
    # A guest that powers itself off (its OS answered the ACPI power
    # button, or shut down on its own) is off, not paused.
    _sub(root, 'on_poweroff', 'destroy')
    _sub(root, 'on_reboot', 'restart')
    _sub(root, 'on_crash', 'destroy')
    devices = _sub(root, 'devices')
    devices.append(scsi_controller())
    _sub(devices, 'controller', type='usb', model='none')
    for spec in disks:
        devices.append(disk(spec))
    for fs in filesystems:
        devices.append(fs)
    if console_log:
        devices.extend(serial_console(console_log))
    _sub(_sub(devices, 'video'), 'model', type='none')
    _sub(devices, 'memballoon', model='none')
    return root


# Editing a definition -------------------------------------------------------

def with_filesystems(domain_xml, filesystems, memory_backing):
    """The domain definition ``domain_xml`` (as libvirt gives it) with
    exactly the ``<filesystem>`` devices ``filesystems`` (elements of
    :func:`filesystem`) and the ``<memoryBacking>`` ``memory_backing`` (an
    element of :func:`memory_backing`, or None for none), as text.

    Everything else (disks, consoles, addresses libvirt gave) is kept as
    it is; a new ``<memoryBacking>`` takes the old one's place, or comes
    after ``<memory>`` and ``<currentMemory>``.
    """
    root = ET.fromstring(domain_xml)
    devices = root.find('devices')
    if devices is None:
        devices = _sub(root, 'devices')
    for el in devices.findall('filesystem'):
        devices.remove(el)
    # libvirt lists filesystems after the disks and controllers.
    children = list(devices)
    at = len(children)
    for index, el in enumerate(children):
        if el.tag in ('disk', 'controller', 'lease'):
            at = index + 1
    for offset, el in enumerate(filesystems):
        devices.insert(at + offset, el)

    old = root.find('memoryBacking')
    if old is not None:
        at = list(root).index(old)
        root.remove(old)
    else:
        at = 0
        for index, el in enumerate(root):
            if el.tag in ('name', 'uuid', 'title', 'description',
                          'metadata', 'maxMemory', 'memory',
                          'currentMemory'):
                at = index + 1
    if memory_backing is not None:
        root.insert(at, memory_backing)
    return to_xml(root)


def with_rescue_disk(domain_xml, spec):
    """The domain definition ``domain_xml`` with the rescue disk
    ``spec`` (a :class:`Disk` with ``boot_order`` 1) added after its
    disks, as text: the other disks keep their names and addresses and
    lose their place in the boot order (as do the ``<boot>`` elements of
    ``<os>``), so that the guest boots from the rescue disk and sees its
    own disks beside it (Nova's stable device rescue)."""
    root = ET.fromstring(domain_xml)
    os_el = root.find('os')
    if os_el is not None:
        for el in os_el.findall('boot'):
            os_el.remove(el)
    devices = root.find('devices')
    if devices is None:
        devices = _sub(root, 'devices')
    at = 0
    for index, el in enumerate(list(devices)):
        if el.tag == 'disk':
            for boot in el.findall('boot'):
                el.remove(boot)
            at = index + 1
        elif el.tag == 'emulator':
            at = max(at, index + 1)
    devices.insert(at, disk(spec))
    return to_xml(root)


def to_xml(element):
    return ET.tostring(element, encoding='unicode')
