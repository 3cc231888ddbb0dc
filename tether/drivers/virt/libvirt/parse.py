"""Pure readers of the domain XML that libvirt returns (the config layer)."""

import dataclasses
import xml.etree.ElementTree as ET


@dataclasses.dataclass(frozen=True)
class DiskInfo:
    """A disk as a domain's XML describes it."""
    target: str
    bus: str
    source: str
    fmt: str
    serial: str
    readonly: bool


def disks(domain_xml):
    """The ``<disk>`` devices of a domain, in document order."""
    root = ET.fromstring(domain_xml)
    found = []
    for el in root.iterfind('./devices/disk'):
        target = el.find('target')
        source = el.find('source')
        driver = el.find('driver')
        serial = el.find('serial')
        found.append(DiskInfo(
            target=target.get('dev') if target is not None else None,
            bus=target.get('bus') if target is not None else None,
            source=(source.get('file') or source.get('dev')
                    if source is not None else None),
            fmt=driver.get('type') if driver is not None else None,
            serial=serial.text if serial is not None else None,
            readonly=el.find('readonly') is not None))
    return found


def filesystems(domain_xml):
    """(source dir, tag) of each ``<filesystem>`` device."""
    root = ET.fromstring(domain_xml)
    return [(el.find('source').get('dir'), el.find('target').get('dir'))
            for el in root.iterfind('./devices/filesystem')]


def memory_backing(domain_xml):
    """``(source type, shared)`` of the ``<memoryBacking>`` of a domain
    (source None when it names none), or None if it has none."""
    el = ET.fromstring(domain_xml).find('memoryBacking')
    if el is None:
        return None
    source = el.find('source')
    access = el.find('access')
    return (source.get('type') if source is not None else None,
            access is not None and access.get('mode') == 'shared')


def find_disk(domain_xml, path=None, serial=None):
    """The disk whose source file is ``path`` (else whose serial matches)."""
    candidates = disks(domain_xml)
    for info in candidates:
        if path is not None and info.source == path:
            return info
    for info in candidates:
        if serial is not None and info.serial == serial:
            return info
    return None


def console_log(domain_xml):
    """The file libvirt logs the guest's console to (the ``<log>`` of its
    first serial port or console), or None if it has none."""
    root = ET.fromstring(domain_xml)
    for path in ('./devices/serial/log', './devices/console/log'):
        el = root.find(path)
        if el is not None and el.get('file'):
            return el.get('file')
    return None


@dataclasses.dataclass(frozen=True)
class DiskChain:
    """A disk and the files QEMU reads for it: ``files[0]`` is the one
    written (its source), each next one the backing file of the one
    before, as the live XML's ``<backingStore>`` elements name them."""
    target: str
    fmt: str
    files: tuple


def disk_chain(domain_xml, serial):
    """The :class:`DiskChain` of the disk whose serial is ``serial``, or
    None. An inactive definition may name only the disk's source."""
    root = ET.fromstring(domain_xml)
    for el in root.iterfind('./devices/disk'):
        found = el.find('serial')
        if found is None or found.text != serial:
            continue
        files = []
        node = el
        while node is not None:
            source = node.find('source')
            if source is None or not source.get('file'):
                break
            files.append(source.get('file'))
            node = node.find('backingStore')
        driver = el.find('driver')
        return DiskChain(target=el.find('target').get('dev'),
                         fmt=driver.get('type') if driver is not None
                         else None,
                         files=tuple(files))
    return None
