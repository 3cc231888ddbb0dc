"""Configuration (oslo.config): the [DEFAULT] options of the compute
service and its API (the [compute] group, how the volume service calls
that API, is in tether.conf.peers)."""

from oslo_config import cfg
from oslo_utils import netutils

compute_opts = [
    cfg.HostAddressOpt('osapi_compute_listen', default='0.0.0.0',
                       help='Address the compute API listens on.'),
    cfg.PortOpt('osapi_compute_listen_port', default=8774,
                help='Port the compute API listens on.'),
    cfg.IntOpt('osapi_compute_threads', default=16, min=1,
               help='Worker threads of the built-in compute API server.'),
    cfg.StrOpt('compute_driver',
               default='tether.drivers.virt.libvirt.driver.LibvirtDriver',
               help='Python path of the hypervisor driver class of '
                    'tether-compute.'),
    cfg.BoolOpt('enable_instance_password', default=True,
                help='Whether a server create and a rebuild answer with '
                     'the server\'s administrative password (adminPass), '
                     'the one the request gave or one made up, as Nova '
                     'does by default. tether\'s guests run no agent and '
                     'have no config drive, so the password is never set '
                     'inside a guest (Nova\'s libvirt driver does not set '
                     'it either without one); Nova\'s clients and Tempest '
                     'expect the field while this is true.'),
    cfg.IntOpt('password_length', default=12, min=8, max=255,
               help='Length of the administrative passwords tether makes '
                    'up (enable_instance_password).'),
    cfg.StrOpt('default_availability_zone', default='nova',
               help='Availability zone of the compute hosts.'),
    cfg.FloatOpt('ram_allocation_ratio', default=1.5, min=0.0,
                 help='How far the memory of the guests of one compute '
                      'host may exceed its physical memory.'),
    cfg.FloatOpt('cpu_allocation_ratio', default=16.0, min=0.0,
                 help='How many guest vCPUs one physical CPU may carry.'),
    cfg.IntOpt('reserved_host_memory_mb', default=512, min=0,
               help='MiB of host memory kept for the host itself.'),
    cfg.IntOpt('rpc_response_timeout_compute', default=120, min=1,
               help='Seconds to wait for a reply from tether-compute.'),
    cfg.IntOpt('shutdown_timeout', default=60, min=0,
               help='Seconds a stopping guest is given to power off when '
                    'its operating system is asked to (the ACPI power '
                    'button, pressed again every 10 seconds) before it is '
                    'powered off at once. A guest without an operating '
                    'system never answers and takes all of it; 0 powers '
                    'guests off at once (Nova\'s default is 60).'),
    cfg.StrOpt('instances_path', default='$state_path/instances',
               help='Directory on the compute host that holds a directory '
                    'per guest, named by its UUID, with its console log '
                    '(console.log, written by libvirt\'s virtlogd) and, '
                    'for a server booted from an image, its root disk '
                    '(disk, a qcow2 overlay on the cached image in '
                    '[image_cache] subdirectory_name). tether-compute must '
                    'be able to read the log; QEMU (libvirt-qemu) must be '
                    'able to pass through every directory above it.'),
    cfg.BoolOpt('force_config_drive', default=False,
                help='Give every server this compute host builds a config '
                     'drive, whether or not its create asked for one '
                     '(Nova\'s option). A config drive is a small FAT '
                     'disk labelled config-2, in the guest\'s directory '
                     '(disk.config), with the server\'s metadata, key '
                     'and user data in Nova\'s layout '
                     '(openstack/latest/meta_data.json, user_data ...).'),
    cfg.IntOpt('block_device_allocate_retries', default=60, min=0,
               help='How many more times tether-compute looks whether a '
                    'volume it made for a new server (a block device '
                    'mapping from an image to a volume) is available, '
                    'before it gives up and the server goes to ERROR (the '
                    'volume is deleted if its mapping says '
                    'delete_on_termination). 0: it looks once. Nova\'s '
                    'option and default.'),
    cfg.FloatOpt('block_device_allocate_retries_interval', default=3.0,
                 min=0.0,
                 help='Seconds between two looks at a volume '
                      'tether-compute made for a new server '
                      '(block_device_allocate_retries).'),
    cfg.IntOpt('reimage_timeout_per_gb', default=20, min=1,
               help='Seconds per GiB of the image (rounded up, at least '
                    'one) that the rebuild of a volume-backed server waits '
                    'for the volume service to re-image its root volume '
                    '(the volume-reimaged event) before the server goes to '
                    'ERROR.'),
    cfg.IPOpt('my_shared_fs_storage_ip', default=netutils.get_my_ipv4(),
              sample_default='<the IPv4 address of the default route>',
              help='The address of this compute host on the network of '
                   'the shared file systems: tether-compute asks the share '
                   'API (Manila) to let this address in (an "ip" access '
                   'rule) before it mounts an NFS share for a server. By '
                   'default the IPv4 address of the interface of the '
                   'default route (127.0.0.1 if there is none); set it '
                   'where the storage network is another one. Nova\'s '
                   'option of the same name (whose default is its my_ip; '
                   'tether has no my_ip).'),
]
