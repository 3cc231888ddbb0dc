"""Configuration options (oslo.config) for every tether service."""

import socket

from oslo_config import cfg
from oslo_db import options as db_options
from oslo_log import log as logging
from oslo_policy import opts as policy_opts
from oslo_utils import netutils

from tether import clients

CONF = cfg.CONF

default_opts = [
    cfg.StrOpt('host', default=socket.gethostname(),
               sample_default='<hostname>',
               help='Name of this host, as services and volumes record it.'),
    cfg.StrOpt('state_path', default='/var/lib/tether',
               help='Top-level directory for tether state.'),
    cfg.StrOpt('auth_strategy', default='keystone',
               choices=[('keystone', 'keystonemiddleware auth_token'),
                        ('noauth', 'trust X-Auth-Token "<user>:<project>"; '
                                   'for development only')],
               help='How API requests are authenticated.'),
    cfg.IntOpt('report_interval', default=10, min=1,
               help='Seconds between service heartbeats in the database.'),
    cfg.IntOpt('service_down_time', default=60, min=1,
               help='A service whose last heartbeat is older than this many '
                    'seconds is considered down.'),
    cfg.IntOpt('osapi_max_limit', default=1000, min=1,
               help='The largest page a list request returns.'),
    cfg.StrOpt('storage_availability_zone', default='nova',
               help='Availability zone of this volume service.'),
    cfg.StrOpt('default_volume_type', default='__DEFAULT__',
               help='Name of the volume type used when none is given.'),
    cfg.ListOpt('enabled_backends', default=[],
                help='Names of the configuration groups that describe the '
                     'backends this tether-volume serves (one RPC server '
                     'each, addressed as <host>@<backend>).'),
    cfg.IntOpt('rpc_response_timeout_volume', default=60, min=1,
               help='Seconds to wait for a reply from tether-volume.'),
    cfg.StrOpt('image_conversion_dir', default='$state_path/conversion',
               help='Directory where tether-volume downloads an image '
                    'before it writes the image into a volume; each '
                    'download is removed once written. It needs room for '
                    'the largest image downloaded at once, and for the '
                    'image file of the largest volume uploaded to an '
                    'image at once.'),
    cfg.BoolOpt('enable_force_upload', default=False,
                help='Let os-volume_upload_image with "force": true upload '
                     'an in-use volume (as Cinder\'s option of the same '
                     'name). The image is then a copy of a disk a running '
                     'guest may be writing: as consistent as the disk of a '
                     'guest that crashed. While this is false, an in-use '
                     'volume is refused whatever "force" says.'),
]

api_opts = [
    cfg.HostAddressOpt('osapi_volume_listen', default='0.0.0.0',
                       help='Address the volume API listens on.'),
    cfg.PortOpt('osapi_volume_listen_port', default=8776,
                help='Port the volume API listens on.'),
    cfg.IntOpt('osapi_volume_threads', default=16, min=1,
               help='Worker threads of the built-in volume API server.'),
    cfg.StrOpt('api_paste_config', default='api-paste.ini',
               help='The PasteDeploy file that defines the WSGI pipelines '
                    'of the volume and compute APIs ([composite:'
                    'osapi_volume] and [composite:osapi_compute], one '
                    'pipeline per auth_strategy). An absolute path, or a '
                    'name looked for beside the configuration files, then '
                    'in ~/.tether/, ~/, /etc/tether/ and /etc/. While this '
                    'option is not set and no such file is found, the copy '
                    'of etc/tether/api-paste.ini shipped inside the tether '
                    'package is used; a file set here that cannot be found '
                    'stops the API from starting.'),
]

quota_opts = [
    cfg.IntOpt('quota_volumes', default=10,
               help='Default number of volumes per project (-1: unlimited).'),
    cfg.IntOpt('quota_gigabytes', default=1000,
               help='Default total GiB of volumes per project '
                    '(-1: unlimited).'),
    cfg.IntOpt('quota_per_volume_gigabytes', default=-1,
               help='Default largest volume in GiB (-1: unlimited).'),
    cfg.IntOpt('reservation_expire', default=86400, min=1,
               help='Seconds until an uncommitted quota reservation expires.'),
    cfg.IntOpt('reservation_clean_interval', default=600, min=1,
               help='Seconds between sweeps that roll back expired '
                    'reservations.'),
    cfg.IntOpt('volume_operation_timeout', default=300, min=0,
               help='Seconds a volume of this backend may stay creating '
                    'or deleting, unchanged and not being worked on by '
                    'tether-volume, before tether-volume creates or deletes '
                    'it again: the API that claimed it stopped before its '
                    'message was sent, or the message was lost. Both '
                    'operations may be repeated. 0 turns this off (a '
                    'restart of tether-volume still takes them up).'),
    cfg.IntOpt('extend_completion_timeout', default=300, min=1,
               help='Seconds a volume may stay extending (an attached '
                    'volume waits for its compute host to grow it and '
                    'answer with os-extend_volume_completion) before '
                    'tether-volume settles the extend from the size of '
                    'the volume on disk: committed if the storage has the '
                    'new size, else rolled back to error_extending. The '
                    'quota reservations of an extend never expire while '
                    'it waits.'),
]

# Options of one volume backend. They live in the group named in
# [DEFAULT]enabled_backends (for example [nfs-1]).
backend_opts = [
    cfg.StrOpt('volume_driver', default='tether.drivers.volume.nfs.NfsDriver',
               help='Python path of the volume driver class.'),
    cfg.StrOpt('volume_backend_name',
               help='Name reported for this backend (defaults to the group '
                    'name).'),
    cfg.ListOpt('nfs_shares', default=[],
                help='Shares this backend stores volume files on. An entry '
                     '"server:/export" is an NFS export mounted under '
                     'nfs_mount_point_base; an absolute path is a directory '
                     'used as an already-mounted share.'),
    cfg.StrOpt('nfs_mount_point_base', default='$state_path/mnt',
               help='Directory under which NFS exports are mounted.'),
    cfg.StrOpt('nfs_mount_options',
               help='Options passed to "mount -t nfs -o".'),
    cfg.StrOpt('volume_format', default='raw', choices=['raw', 'qcow2'],
               help='Format of new volume files.'),
    cfg.BoolOpt('nfs_sparsed_volumes', default=True,
                help='Create raw volume files sparse.'),
    cfg.FloatOpt('max_over_subscription_ratio', default=20.0, min=1.0,
                 help='How far the provisioned size may exceed the share '
                      'capacity (thin provisioning).'),
    cfg.IntOpt('reserved_percentage', default=0, min=0, max=100,
               help='Percentage of each share kept free.'),
    cfg.IntOpt('qemu_img_cpu_limit', default=30, min=1,
               help='CPU seconds a qemu-img call may use.'),
    cfg.IntOpt('qemu_img_address_space_limit', default=1024 * 1024 * 1024,
               min=1, help='Bytes of address space a qemu-img call may use.'),
]

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

# The cache of images on a compute host (Nova's [image_cache]).
image_cache_group = cfg.OptGroup(
    'image_cache', title='The images a compute host keeps for the local '
                         'root disks of its servers')

image_cache_opts = [
    cfg.IntOpt('manager_interval', default=2400, min=-1,
               help='Seconds between two runs of the image cache manager '
                    'of tether-compute, which marks the cached images the '
                    'servers of the host use and removes those no server '
                    'has used for remove_unused_original_minimum_age_'
                    'seconds. 0: every 60 seconds; -1: never.'),
    cfg.StrOpt('subdirectory_name', default='_base',
               help='Directory under [DEFAULT] instances_path that holds '
                    'the cached images (one raw file per image, named by '
                    'its ID), on which the root disks of the servers '
                    'booted from images are qcow2 overlays.'),
    cfg.BoolOpt('remove_unused_base_images', default=True,
                help='Whether the image cache manager removes cached '
                     'images that no server of the host uses.'),
    cfg.IntOpt('remove_unused_original_minimum_age_seconds',
               default=24 * 3600, min=0,
               help='An unused cached image is removed only once no '
                    'server of the host has used it for this many '
                    'seconds (a build that uses it, and each run of the '
                    'manager that finds it used, make it young again).'),
]

# The compute service's database, apart from the volume service's
# [database], as Nova keeps [api_database] apart from [database].
compute_database_group = cfg.OptGroup(
    'compute_database', title='The compute service database')

# How each service reaches the other's API (as Nova's [cinder] and
# Cinder's [nova]): keystoneauth options, plus these.
volume_group = cfg.OptGroup('volume', title='The volume API, as the compute '
                                            'service calls it')
volume_client_opts = clients.peer_opts(
    'block-storage', 'tether-compute:service:admin,service', 'volume API')
compute_group = cfg.OptGroup('compute', title='The compute API, as the '
                                              'volume service calls it')
compute_client_opts = clients.peer_opts(
    'compute', 'tether-volume:service:admin,service', 'compute API')
# How both services reach the image API (Glance), as Nova's and Cinder's
# [glance].
image_group = cfg.OptGroup('image', title='The image API (Glance), as the '
                                          'volume and compute services '
                                          'call it')
image_client_opts = clients.peer_opts(
    'image', 'tether:service:admin,service', 'image API') + [
    cfg.IntOpt('read_timeout', default=60, min=1,
               help='Seconds a call to the image API waits for the next '
                    'bytes of its answer (of a download too) before it '
                    'gives up: a store that stalls fails the operation '
                    'rather than holding it forever.'),
    cfg.ListOpt('allowed_direct_url_schemes', default=[],
                item_type=cfg.types.String(choices=['file']),
                help='Schemes of an image\'s direct URL that tether reads '
                     'the image\'s data from itself instead of downloading '
                     'it through the image API: "file", the image API\'s '
                     'filesystem store where this host sees it (at the '
                     'same path). The image API shows the URL only with '
                     'its show_image_direct_url = True. The data is '
                     'inspected and checked against the image API\'s hash '
                     'all the same; a file that cannot be read here is '
                     'downloaded. Cinder\'s option of the same name.'),
    cfg.ListOpt('direct_url_file_dirs', default=[],
                help='Directories a "file" direct URL may point into: the '
                     'image API\'s filesystem_store_datadir. A file '
                     'anywhere else is never read (the image is '
                     'downloaded through the image API).'),
]

# How the compute service reaches the share API (Manila), as Nova's
# [manila]: keystoneauth options, plus these.
share_group = cfg.OptGroup('share', title='The share API (Manila), as the '
                                          'compute service calls it')
share_client_opts = clients.peer_opts(
    'sharev2', 'tether-compute:service', 'share API') + [
    cfg.IntOpt('share_apply_policy_timeout', default=10, min=1, max=600,
               help='Seconds tether-compute waits for the share API to '
                    'apply an access rule it asked for (the rule becomes '
                    'active) or to remove one (the rule is gone), looking '
                    'about once a second; the attach or detach of the '
                    'share fails after that. Nova\'s option of the same '
                    'name.'),
    cfg.StrOpt('cephfs_access_to', default='tether',
               regex=r'^[A-Za-z0-9_-]+$',
               help='The cephx identity (client.<name>, without the '
                    '"client." prefix) the share API grants a CEPHFS share '
                    'to, for every compute host; the host mounts the share '
                    'as that identity with the key the access rule '
                    'carries. Letters, digits, "-" and "_" (Manila takes '
                    'any printable name without a period; tether takes '
                    'fewer, so that the name goes into mount options as it '
                    'is). It must not be the identity Manila\'s CephFS '
                    'driver itself uses (its cephfs_auth_id), which Manila '
                    'refuses. Nova grants "nova".'),
]

aio_opts = [
    cfg.StrOpt('aio_transport_url', default='kombu+memory://localhost//',
               help='Transport used by tether-aio, where every service runs '
                    'in one process.'),
]

# Rolling upgrades: the RPC version the clients of each manager send (as
# Nova's and Cinder's [upgrade_levels]).
upgrade_levels_group = cfg.OptGroup(
    'upgrade_levels', title='RPC versions pinned for rolling upgrades')

_UPGRADE_LEVEL = r'^(auto|[0-9]+\.[0-9]+)$'
_UPGRADE_LEVEL_HELP = (
    'RPC version cap of %(binary)s: the newest RPC API version of '
    '%(binary)s that the %(api)s sends, each object at the version a '
    '%(binary)s of that RPC version reads. Unset: the newest this code '
    'knows. During a rolling upgrade, while some %(binary)s services run '
    'an older release than the %(api)s, set "auto": the RPC version of '
    'the oldest %(binary)s in the services table, read once per API '
    'process (restart or reload the API when the last one is upgraded); '
    'or set that version, "X.Y". "tether-manage status upgrade check" '
    'shows what the setting pins to.')

upgrade_levels_opts = [
    cfg.StrOpt('volume', regex=_UPGRADE_LEVEL,
               help=_UPGRADE_LEVEL_HELP % {
                   'binary': 'tether-volume', 'api': 'volume API'}),
    cfg.StrOpt('compute', regex=_UPGRADE_LEVEL,
               help=_UPGRADE_LEVEL_HELP % {
                   'binary': 'tether-compute', 'api': 'compute API'}),
]

# Options of the libvirt compute driver (tether-compute).
libvirt_group = cfg.OptGroup('libvirt', title='The libvirt compute driver')

libvirt_opts = [
    cfg.StrOpt('virt_type', default='qemu', choices=[
                   ('qemu', 'QEMU with TCG (software emulation)'),
                   ('kvm', 'QEMU with KVM acceleration')],
               help='Domain type of the guests libvirt runs.'),
    cfg.StrOpt('connection_uri', default='qemu:///system',
               help='libvirt connection URI of the hypervisor.'),
    cfg.IntOpt('file_backed_memory', default=0, min=0,
               help='MiB of guest memory that may be backed by files in '
                    'libvirt\'s memory_backing_dir (qemu.conf). 0 turns '
                    'file-backed memory off; any other value makes guests '
                    'use shared file-backed memory, which virtio-fs '
                    'needs, and reports the COMPUTE_MEM_BACKING_FILE '
                    'trait.'),
    cfg.StrOpt('nfs_mount_point_base', default='$state_path/mnt',
               help='Directory under which the compute host mounts the NFS '
                    'exports of volumes (an export that is an absolute '
                    'path is used as an already-mounted share).'),
    cfg.StrOpt('nfs_mount_options',
               help='Options passed to "mount -t nfs -o" when the compute '
                    'host mounts an export whose connection info names '
                    'none.'),
    cfg.StrOpt('share_mount_point_base', default='$state_path/mnt-shares',
               help='Directory under which the compute host mounts the '
                    'Manila shares of its servers (one directory per '
                    'share ID), which guests get over virtio-fs. The '
                    'cephx keyrings of CephFS shares are kept beside them, '
                    'readable by root only.'),
]

CONF.register_opts(default_opts)
CONF.register_opts(api_opts)
CONF.register_opts(quota_opts)
CONF.register_opts(compute_opts)
CONF.register_group(compute_database_group)
CONF.register_opts(db_options.database_opts, group=compute_database_group)
for _group, _opts in ((volume_group, volume_client_opts),
                      (compute_group, compute_client_opts),
                      (image_group, image_client_opts),
                      (share_group, share_client_opts)):
    CONF.register_group(_group)
    CONF.register_opts(_opts, group=_group)
    clients.register_keystoneauth_opts(CONF, _group.name)
CONF.register_group(libvirt_group)
CONF.register_opts(libvirt_opts, group=libvirt_group)
CONF.register_group(image_cache_group)
CONF.register_opts(image_cache_opts, group=image_cache_group)
CONF.register_group(upgrade_levels_group)
CONF.register_opts(upgrade_levels_opts, group=upgrade_levels_group)
db_options.set_defaults(CONF, connection='sqlite:///$state_path/tether.sqlite')
CONF.set_default('connection', 'sqlite:///$state_path/compute.sqlite',
                 group=compute_database_group)
logging.register_options(CONF)
# Logs go to stderr unless a log file is set: stdout carries what a command
# answers (tether-manage) or announces (tether-aio's ready line).
CONF.set_default('use_stderr', True)


def register_backend_opts(conf, group):
    """Register backend options under ``group`` and return that group."""
    conf.register_opts(backend_opts, group=group)
    return conf[group]


def set_lib_defaults():
    policy_opts.set_defaults(CONF, policy_file='policy.yaml')


def list_opts():
    """Options for oslo-config-generator (the ``tether`` namespace).

    The backend options are listed in a group literally named ``backend``
    so that the sample shows them once; a real deployment names each group
    after its backend, as listed in ``[DEFAULT]enabled_backends`` (for
    example ``[nfs-1]``).
    """
    return [
        ('DEFAULT', default_opts + api_opts + quota_opts + compute_opts),
        ('backend', backend_opts),
        (libvirt_group, libvirt_opts),
        (image_cache_group, image_cache_opts),
        (compute_database_group, db_options.database_opts),
        (volume_group, volume_client_opts + clients.keystoneauth_opts()),
        (compute_group,
         compute_client_opts + clients.keystoneauth_opts()),
        (image_group, image_client_opts + clients.keystoneauth_opts()),
        (share_group, share_client_opts + clients.keystoneauth_opts()),
        (upgrade_levels_group, upgrade_levels_opts),
    ]
