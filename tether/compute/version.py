"""What each tether-compute can do and speaks over RPC (no driver, no DB).

tether-manage, the compute API and the manager read these; importing this
module loads nothing of the hypervisor driver.
"""

# The compute manager's RPC API (tether.compute.rpcapi lists the methods
# of each version).
RPC_API_VERSION = '1.11'

# The version of each object a compute manager of each RPC API version
# reads. A client pinned to an RPC version sends every object at the
# version its row names. Changing an object a manager of an older RPC
# version cannot read takes an RPC minor version and a row here
# (tests/unit/test_rpc_versions.py checks that the newest row names the
# objects of this tree).
#
# * 1.0 - Instance 1.0
# * 1.1 - get_console_output; Instance 1.0
# * 1.2 - build_and_run_instance of servers from images; Instance 1.1
#         (image_ref)
# * 1.3 - rebuild_instance, external_instance_event; Instance 1.2 (the
#         rebuild's task states)
# * 1.4 - allow_share, deny_share; Instance 1.3
#         (pinned_availability_zone)
# * 1.5 - rebuild_instance takes the image the API read; Instance 1.4
#         (key_name, key_data)
# * 1.6 - pause_instance, unpause_instance, suspend_instance,
#         resume_instance; Instance 1.5 (locked_by, locked_reason; the
#         paused and suspended states; user_data, access_ip_v4,
#         access_ip_v6)
# * 1.7 - rescue_instance, unrescue_instance; Instance 1.6 (the rescued
#         state, rescuing and unrescuing)
# * 1.8 - volume_snapshot_create, volume_snapshot_delete; Instance 1.6
# * 1.9 - snapshot_instance (createImage of a server with a local root
#         disk); build_and_run_instance of servers with volumes made of
#         snapshots or empty; Instance 1.7 (the task states of a
#         snapshot into an image)
# * 1.10 - build_and_run_instance of servers with a config drive;
#         Instance 1.8 (config_drive)
# * 1.11 - extend_volume takes ``new_size``, the size a waiting extend
#         asks for as the volume service sent it with volume-extended;
#         Instance 1.8
RPC_OBJECT_VERSIONS = {
    '1.0': {'Instance': '1.0'},
    '1.1': {'Instance': '1.0'},
    '1.2': {'Instance': '1.1'},
    '1.3': {'Instance': '1.2'},
    '1.4': {'Instance': '1.3'},
    '1.5': {'Instance': '1.4'},
    '1.6': {'Instance': '1.5'},
    '1.7': {'Instance': '1.6'},
    '1.8': {'Instance': '1.6'},
    '1.9': {'Instance': '1.7'},
    '1.10': {'Instance': '1.8'},
    '1.11': {'Instance': '1.8'},
}

# The service version: what a tether-compute can do, an integer recorded
# in its service record; the compute API reads it before asking a host
# for something newer, and ``[upgrade_levels] compute = auto`` reads the
# oldest one. The row of each service version names the RPC API version
# that service serves.
SERVICE_VERSION_HISTORY = (
    # 0: a record without a version (the column's default)
    {'compute_rpc': '1.0'},
    # 1: boot from volume, power actions, volume attach/detach, extend
    {'compute_rpc': '1.0'},
    # 2: volume-extended of a volume extending: grow it to extend_new_size
    #    and answer with os-extend_volume_completion
    {'compute_rpc': '1.0'},
    # 3: guests' serial consoles logged to a file; get_console_output
    {'compute_rpc': '1.1'},
    # 4: servers from images: a local root disk (a qcow2 overlay on the
    #    host's cached copy of the image) and volumes the host makes of
    #    images (block device mappings image -> volume); Instance 1.1
    {'compute_rpc': '1.2'},
    # 5: rebuild, volume-backed servers' root volumes re-imaged (waiting
    #    for volume-reimaged, external_instance_event)
    {'compute_rpc': '1.3'},
    # 6: Manila shares attached to servers over virtio-fs (allow_share,
    #    deny_share; mounted on the host at start, unmounted at stop)
    {'compute_rpc': '1.4'},
    # 7: rebuild_instance takes the image the compute API read, so the
    #    host does not ask the image API again; Instance 1.4 (the key pair
    #    of a server: key_name, key_data)
    {'compute_rpc': '1.5'},
    # 8: pause and unpause, suspend (libvirt's managed save) and resume;
    #    Instance 1.5 (who locked a server and why; its user data and
    #    access addresses)
    {'compute_rpc': '1.6'},
    # 9: rescue and unrescue (the guest boots from a rescue disk made of
    #    an image, its own disks after it); Instance 1.6 (rescued)
    {'compute_rpc': '1.7'},
    # 10: assisted volume snapshots: a guest's disk of an attached volume
    #     switched to a new overlay, and its chain merged, for the volume
    #     service (volume_snapshot_create, volume_snapshot_delete)
    {'compute_rpc': '1.8'},
    # 11: volumes made of volume snapshots and empty ones (block device
    #     mappings snapshot -> volume, blank -> volume); snapshots of
    #     servers with a local root disk uploaded as images
    #     (snapshot_instance)
    {'compute_rpc': '1.9'},
    # 12: config drives (a small FAT disk labelled config-2 with the
    #     server's metadata, key and user data, Nova's layout; [DEFAULT]
    #     force_config_drive); Instance 1.8 (config_drive)
    {'compute_rpc': '1.10'},
    # 13: extend_volume with the new size of a waiting extend (the volume
    #     service sends it with volume-extended): the host grows the disk
    #     without reading the volume first
    {'compute_rpc': '1.11'},
)
SERVICE_VERSION = len(SERVICE_VERSION_HISTORY) - 1

# The oldest tether-compute the compute API of this tree still works
# with. Raise it when the API stops handling what an older compute host
# records or answers; tether-manage status upgrade check names the hosts
# below it.
OLDEST_SUPPORTED_SERVICE_VERSION = 1

# The first service version that grows a volume extending for the volume
# service and answers it (os-extend_volume_completion).
EXTEND_COMPLETION_SERVICE_VERSION = 2

# The first service version that serves a guest's console output (RPC
# 1.1, get_console_output).
CONSOLE_OUTPUT_SERVICE_VERSION = 3

# The first service version that builds servers from images (RPC 1.2):
# a local root disk made of an image, volumes made of images.
IMAGE_BUILD_SERVICE_VERSION = 4

# The first service version that rebuilds servers (RPC 1.3), volume-backed
# ones by re-imaging their root volume.
REBUILD_SERVICE_VERSION = 5

# The first service version that attaches Manila shares to servers (RPC
# 1.4, allow_share and deny_share).
SHARES_SERVICE_VERSION = 6

# The first service version that pauses and suspends servers (RPC 1.6).
PAUSE_SERVICE_VERSION = 8

# The first service version that rescues and unrescues servers (RPC 1.7).
RESCUE_SERVICE_VERSION = 9

# The first service version that takes and deletes assisted volume
# snapshots (RPC 1.8).
ASSISTED_SNAPSHOT_SERVICE_VERSION = 10

# The first service version that makes volumes of snapshots and empty
# ones for the servers it builds, and snapshots servers with a local root
# disk into images (RPC 1.9).
SNAPSHOT_BUILD_SERVICE_VERSION = 11
# The first service version that gives guests a config drive (RPC 1.10).
CONFIG_DRIVE_SERVICE_VERSION = 12

# The first service version that takes the new size of a waiting extend
# with extend_volume (RPC 1.11) instead of reading the volume for it.
EXTEND_SIZE_SERVICE_VERSION = 13


def rpc_version_of(service_version):
    """The RPC API version a tether-compute of ``service_version`` serves
    (at least the newest this code knows, for a newer service)."""
    history = SERVICE_VERSION_HISTORY
    return history[min(max(service_version or 0, 0),
                       len(history) - 1)]['compute_rpc']
