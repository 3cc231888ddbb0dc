"""The domain XML builders and readers of the libvirt driver (no libvirt)."""

import xml.etree.ElementTree as ET

import pytest

from tether.drivers.virt.libvirt import config
from tether.drivers.virt.libvirt import parse

UUID = '6c1bb3e7-5b1a-4c0e-9d6a-1f4f3c2b9a10'


def _domain(**kwargs):
    args = dict(name='instance-1', uuid=UUID, memory_mib=128, vcpus=2)
    args.update(kwargs)
    return ET.fromstring(config.to_xml(config.domain(**args)))


def _disk(**kwargs):
    args = dict(path='/srv/share/volume-1', fmt='raw', target='sda')
    args.update(kwargs)
    return config.Disk(**args)


@pytest.mark.parametrize('index, name', [
    (0, 'sda'), (1, 'sdb'), (25, 'sdz'), (26, 'sdaa'), (27, 'sdab'),
    (51, 'sdaz'), (52, 'sdba'), (255, 'sdiv')])
def test_disk_names_are_linux_names(index, name):
    assert config.disk_name(index) == name
    assert config.disk_index(name) == index


@pytest.mark.parametrize('name', ['vda', 'sd', 'sdA', 'sd1', 'hda', ''])
def test_other_names_are_not_scsi_disk_names(name):
    with pytest.raises(ValueError):
        config.disk_index(name)


def test_disk_index_out_of_range():
    with pytest.raises(ValueError):
        config.disk_name(config.MAX_DISKS)


def test_next_free_disk_fills_gaps_first():
    assert config.next_free_disk(set()) == 'sda'
    assert config.next_free_disk({'sda', 'sdb'}) == 'sdc'
    assert config.next_free_disk({'sda', 'sdc'}) == 'sdb'
    everything = {config.disk_name(i) for i in range(config.MAX_DISKS)}
    with pytest.raises(ValueError):
        config.next_free_disk(everything)


def test_domain_is_an_os_less_tcg_q35_guest():
    root = _domain()
    assert root.tag == 'domain' and root.get('type') == 'qemu'
    assert root.findtext('name') == 'instance-1'
    assert root.findtext('uuid') == UUID
    memory = root.find('memory')
    assert (memory.text, memory.get('unit')) == ('128', 'MiB')
    assert root.findtext('vcpu') == '2'
    os_type = root.find('os/type')
    assert (os_type.text, os_type.get('machine'), os_type.get('arch')) == (
        'hvm', 'q35', 'x86_64')
    cpu = root.find('cpu')
    assert (cpu.get('mode'), cpu.findtext('model')) == ('custom', 'qemu64')
    assert root.findtext('on_poweroff') == 'destroy'
    assert root.find('memoryBacking') is None
    assert root.find('title') is None


def test_domain_devices_have_no_graphics_and_a_virtio_scsi_controller():
    devices = _domain().find('devices')
    assert devices.find('graphics') is None
    assert devices.find('video/model').get('type') == 'none'
    assert devices.find('memballoon').get('model') == 'none'
    controllers = {(c.get('type'), c.get('model'), c.get('index'))
                   for c in devices.findall('controller')}
    assert ('scsi', 'virtio-scsi', '0') in controllers
    assert devices.findall('disk') == []


def test_domain_for_kvm_uses_the_host_cpu_model():
    root = _domain(virt_type='kvm', cpu_model=None, title='my server')
    assert root.get('type') == 'kvm'
    assert root.find('cpu').get('mode') == 'host-model'
    assert root.find('cpu/model') is None
    assert root.findtext('title') == 'my server'


def test_domain_refuses_no_memory_or_no_vcpu():
    with pytest.raises(ValueError):
        config.domain('x', UUID, 0, 1)
    with pytest.raises(ValueError):
        config.domain('x', UUID, 64, 0)


def test_disk_is_a_file_on_the_scsi_bus():
    el = config.disk(_disk(fmt='qcow2', target='sdc', serial='vol-1'))
    assert (el.tag, el.get('type'), el.get('device')) == ('disk', 'file',
                                                          'disk')
    assert el.find('driver').attrib == {'name': 'qemu', 'type': 'qcow2'}
    assert el.find('source').get('file') == '/srv/share/volume-1'
    assert el.find('target').attrib == {'dev': 'sdc', 'bus': 'scsi'}
    assert el.findtext('serial') == 'vol-1'
    assert el.find('readonly') is None
    assert el.find('address').attrib == {
        'type': 'drive', 'controller': '0', 'bus': '0', 'target': '0',
        'unit': '2'}


def test_read_only_disk_without_serial():
    el = config.disk(_disk(readonly=True))
    assert el.find('readonly') is not None
    assert el.find('serial') is None


def test_disk_with_io_limits_has_an_iotune():
    el = config.disk(_disk(iotune=(('total_bytes_sec', 1048576),
                                   ('read_iops_sec', 2000))))
    tune = el.find('iotune')
    assert [(c.tag, c.text) for c in tune] == [
        ('total_bytes_sec', '1048576'), ('read_iops_sec', '2000')]
    assert config.disk(_disk()).find('iotune') is None


def test_disk_refuses_an_unknown_format():
    with pytest.raises(ValueError, match='vmdk'):
        config.disk(_disk(fmt='vmdk'))


def test_domain_lists_disks_in_order():
    root = _domain(disks=[_disk(), _disk(path='/srv/b', target='sdb')])
    assert [d.find('target').get('dev')
            for d in root.findall('devices/disk')] == ['sda', 'sdb']


def test_the_root_disk_first_in_the_boot_order():
    # With a boot order on a disk, the domain has none of its own (libvirt
    # refuses both).
    root = _domain(disks=[_disk(path='/srv/i/disk', fmt='qcow2',
                                boot_order=1),
                          _disk(path='/srv/b', target='sdb')])
    assert root.find('os/boot') is None
    disks = root.findall('devices/disk')
    assert disks[0].find('boot').attrib == {'order': '1'}
    assert disks[1].find('boot') is None
    # Without one, the firmware boots the first hard disk.
    plain = _domain(disks=[_disk()])
    assert plain.find('os/boot').attrib == {'dev': 'hd'}
    assert plain.find('devices/disk/boot') is None


def test_xml_special_characters_are_escaped():
    root = _domain(title='a <b> & "c"',
                   disks=[_disk(path="/srv/it's & <here>")])
    assert root.findtext('title') == 'a <b> & "c"'
    assert root.find('devices/disk/source').get('file') == \
        "/srv/it's & <here>"


def test_virtiofs_filesystem_and_shared_file_backed_memory():
    root = _domain(
        filesystems=[config.filesystem('/srv/shares/s1', 'share-tag')],
        memory_backing=config.memory_backing('file', shared=True,
                                             discard=True))
    fs = root.find('devices/filesystem')
    assert (fs.get('type'), fs.get('accessmode')) == ('mount', 'passthrough')
    assert fs.find('driver').get('type') == 'virtiofs'
    assert fs.find('source').get('dir') == '/srv/shares/s1'
    assert fs.find('target').get('dir') == 'share-tag'
    backing = root.find('memoryBacking')
    assert backing.find('source').get('type') == 'file'
    assert backing.find('access').get('mode') == 'shared'
    assert backing.find('discard') is not None


def test_memory_backing_memfd_private_and_bad_source():
    el = config.memory_backing('memfd', shared=False)
    assert el.find('source').get('type') == 'memfd'
    assert el.find('access') is None
    with pytest.raises(ValueError):
        config.memory_backing('hugepages')


def test_parse_reads_back_what_the_builders_wrote():
    xml = config.to_xml(config.domain(
        'x', UUID, 64, 1,
        disks=[_disk(serial='s1'),
               _disk(path='/srv/q', fmt='qcow2', target='sdb',
                     readonly=True)],
        filesystems=[config.filesystem('/srv/fs', 'tag')]))
    assert parse.disks(xml) == [
        parse.DiskInfo('sda', 'scsi', '/srv/share/volume-1', 'raw', 's1',
                       False),
        parse.DiskInfo('sdb', 'scsi', '/srv/q', 'qcow2', None, True)]
    assert parse.filesystems(xml) == [('/srv/fs', 'tag')]
    assert parse.find_disk(xml, path='/srv/q').target == 'sdb'
    assert parse.find_disk(xml, path='/nope', serial='s1').target == 'sda'
    assert parse.find_disk(xml, path='/nope', serial='nope') is None


def test_a_domain_logs_its_serial_console_as_nova_does():
    log = '/var/lib/tether/instances/%s/console.log' % UUID
    devices = _domain(console_log=log).find('devices')
    [serial] = devices.findall('serial')
    assert serial.get('type') == 'pty'
    assert serial.find('log').attrib == {'file': log, 'append': 'off'}
    assert serial.find('target').get('port') == '0'
    [console] = devices.findall('console')
    assert console.get('type') == 'pty'
    assert console.find('target').attrib == {'type': 'serial', 'port': '0'}
    assert parse.console_log(config.to_xml(_domain(console_log=log))) == log


def test_a_domain_without_a_log_has_no_serial_console():
    root = _domain()
    assert root.find('devices/serial') is None
    assert root.find('devices/console') is None
    assert parse.console_log(config.to_xml(root)) is None


def test_the_console_log_as_libvirt_shows_a_running_guest():
    # The live XML: libvirt fills in the pty, and the console repeats
    # the serial port's log.
    xml = """<domain><devices>
      <serial type='pty'><source path='/dev/pts/3'/>
        <log file='/i/%(u)s/console.log' append='off'/>
        <target type='isa-serial' port='0'/></serial>
      <console type='pty' tty='/dev/pts/3'><source path='/dev/pts/3'/>
        <log file='/i/%(u)s/console.log' append='off'/>
        <target type='serial' port='0'/></console>
    </devices></domain>""" % {'u': UUID}
    assert parse.console_log(xml) == '/i/%s/console.log' % UUID


# A stopped guest's definition as libvirt 9.0 gives it back (trimmed):
# a disk, a virtio-fs share, memfd memory, the logged console.
DEFINED = """<domain type='qemu'>
  <name>instance-1</name>
  <uuid>%(u)s</uuid>
  <memory unit='KiB'>65536</memory>
  <currentMemory unit='KiB'>65536</currentMemory>
  <memoryBacking>
    <source type='memfd'/>
    <access mode='shared'/>
  </memoryBacking>
  <vcpu placement='static'>1</vcpu>
  <os><type arch='x86_64' machine='pc-q35-7.2'>hvm</type></os>
  <devices>
    <emulator>/usr/bin/qemu-system-x86_64</emulator>
    <disk type='file' device='disk'>
      <driver name='qemu' type='raw'/>
      <source file='/srv/share/volume-1'/>
      <target dev='sda' bus='scsi'/>
      <serial>vol1</serial>
      <boot order='1'/>
      <address type='drive' controller='0' bus='0' target='0' unit='0'/>
    </disk>
    <controller type='scsi' index='0' model='virtio-scsi'>
      <address type='pci' domain='0x0000' bus='0x02' slot='0x00'
               function='0x0'/>
    </controller>
    <filesystem type='mount' accessmode='passthrough'>
      <driver type='virtiofs' queue='1024'/>
      <source dir='/var/lib/tether/mnt-shares/old'/>
      <target dir='old-tag'/>
      <address type='pci' domain='0x0000' bus='0x01' slot='0x00'
               function='0x0'/>
    </filesystem>
    <serial type='pty'>
      <log file='/i/%(u)s/console.log' append='off'/>
      <target type='isa-serial' port='0'/>
    </serial>
    <console type='pty'>
      <log file='/i/%(u)s/console.log' append='off'/>
      <target type='serial' port='0'/>
    </console>
  </devices>
</domain>""" % {'u': UUID}


def _everything_but_shares(xml):
    """The definition without its filesystems and memory backing."""
    root = ET.fromstring(xml)
    devices = root.find('devices')
    for el in devices.findall('filesystem'):
        devices.remove(el)
    for el in root.findall('memoryBacking'):
        root.remove(el)
    return [(el.tag, el.attrib, ET.tostring(el)) for el in root.iter()]


def test_with_filesystems_replaces_the_shares_and_keeps_the_rest():
    xml = config.with_filesystems(
        DEFINED, [config.filesystem('/srv/a', 'tag-a'),
                  config.filesystem('/srv/b', 'tag-b')],
        config.memory_backing('memfd', shared=True))
    assert parse.filesystems(xml) == [('/srv/a', 'tag-a'),
                                      ('/srv/b', 'tag-b')]
    assert parse.memory_backing(xml) == ('memfd', True)
    assert _everything_but_shares(xml) == _everything_but_shares(DEFINED)
    # Where libvirt puts them: the shares after the disks and
    # controllers, the memory backing after the memory.
    root = ET.fromstring(xml)
    assert [el.tag for el in root.find('devices')] == [
        'emulator', 'disk', 'controller', 'filesystem', 'filesystem',
        'serial', 'console']
    assert [el.tag for el in root][2:6] == [
        'memory', 'currentMemory', 'memoryBacking', 'vcpu']


def test_with_no_filesystems_a_definition_has_none_and_no_memory_backing():
    xml = config.with_filesystems(DEFINED, [], None)
    assert parse.filesystems(xml) == []
    assert parse.memory_backing(xml) is None
    assert _everything_but_shares(xml) == _everything_but_shares(DEFINED)
    assert parse.console_log(xml) == '/i/%s/console.log' % UUID
    assert parse.disks(xml) == parse.disks(DEFINED)


def test_with_filesystems_adds_memory_backing_to_a_definition_without():
    plain = config.with_filesystems(DEFINED, [], None)
    xml = config.with_filesystems(
        plain, [], config.memory_backing('file', shared=True, discard=True))
    assert parse.memory_backing(xml) == ('file', True)
    root = ET.fromstring(xml)
    assert [el.tag for el in root][2:5] == [
        'memory', 'currentMemory', 'memoryBacking']
    assert root.find('memoryBacking/discard') is not None
    # Twice the same edit gives the same definition.
    again = config.with_filesystems(
        xml, [], config.memory_backing('file', shared=True, discard=True))
    assert again == xml


# A rescue ------------------------------------------------------------------

def _booted_domain(disks):
    return config.to_xml(config.domain(
        name='instance-%s' % UUID, uuid=UUID, memory_mib=128, vcpus=1,
        disks=disks, console_log='/i/%s/console.log' % UUID))


def test_with_rescue_disk_adds_it_first_in_the_boot_order():
    root = config.Disk(path='/i/%s/disk' % UUID, fmt='qcow2',
                       target='sda', boot_order=1)
    data = config.Disk(path='/v/data', fmt='raw', target='sdb',
                       serial='vol-1')
    original = _booted_domain([root, data])
    rescue = config.Disk(path='/i/%s/disk.rescue' % UUID, fmt='qcow2',
                         target='sdc', boot_order=1)
    xml = config.with_rescue_disk(original, rescue)

    tree = ET.fromstring(xml)
    disks = tree.findall('devices/disk')
    # The server's disks keep their names, sources, serials and
    # addresses; only the rescue disk has a place in the boot order.
    assert [(d.find('target').get('dev'), d.find('source').get('file'),
             d.find('address').get('unit'),
             d.find('boot').get('order') if d.find('boot') is not None
             else None) for d in disks] == [
        ('sda', '/i/%s/disk' % UUID, '0', None),
        ('sdb', '/v/data', '1', None),
        ('sdc', '/i/%s/disk.rescue' % UUID, '2', '1')]
    assert disks[1].find('serial').text == 'vol-1'
    assert tree.find('os/boot') is None
    # Right after the other disks; the other devices as they were.
    tags = [el.tag for el in tree.find('devices')]
    assert tags == [el.tag for el in ET.fromstring(original).find(
        'devices')][:tags.index('disk') + 2] + ['disk'] + [
        el.tag for el in ET.fromstring(original).find('devices')][
        tags.index('disk') + 2:]
    assert parse.console_log(xml) == parse.console_log(original)


def test_with_rescue_disk_drops_the_boot_devices_of_os():
    original = ET.fromstring(_booted_domain([config.Disk(
        path='/v/root', fmt='raw', target='sda')]))
    ET.SubElement(original.find('os'), 'boot', dev='hd')
    xml = config.with_rescue_disk(
        config.to_xml(original),
        config.Disk(path='/r', fmt='qcow2', target='sdb', boot_order=1))
    assert ET.fromstring(xml).find('os/boot') is None
    assert [d.target for d in parse.disks(xml)] == ['sda', 'sdb']
