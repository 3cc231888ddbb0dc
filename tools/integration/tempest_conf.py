"""The ``tempest.conf`` of the integration job's Tempest runs (a template
that tempest.py fills in with the deployment's endpoints, credentials,
images and the microversions tether serves)."""

# What the deployment serves, for Tempest: the volume API, the image API
# (its tests upload volumes to it; the compute tests boot of it) and,
# for the compute suite, the compute API; no network or object storage;
# of the optional features, none that tether does not serve.
CONF = """\
[DEFAULT]
log_file = {workspace}/tempest.log

[auth]
admin_username = admin
admin_password = {admin_password}
admin_project_name = admin
admin_domain_name = Default
default_credentials_domain_name = Default
use_dynamic_credentials = True

[identity]
uri_v3 = {keystone_url}
auth_version = v3
region = {region}
v3_endpoint_type = public

[identity-feature-enabled]
api_v2 = False

[service_available]
cinder = True
glance = True
nova = {nova}
neutron = False
swift = False

[volume]
catalog_type = block-storage
endpoint_type = publicURL
min_microversion = {volume_min_version}
max_microversion = {volume_max_version}
storage_protocol = nfs
vendor_name = tether
backup_driver = posix
build_interval = 1
build_timeout = 120

[volume-feature-enabled]
# The deployment runs tether-backup (deployment.py), with the posix
# driver.
backup = True
snapshot = True
clone = True
manage_snapshot = False
manage_volume = False
extend_attached_volume = False
multi_backend = False
# What GET /extensions lists (Tempest's default, "all", would look for
# Cinder's os-hosts, which tether does not serve).
api_extensions = {api_extensions}

[image]
catalog_type = image

[validation]
# Tempest's guests would be reached over the network to check them:
# tether has no network service (the functional tests look inside its
# guests through their serial consoles instead).
run_validation = False

[compute]
image_ref = {image_ref}
image_ref_alt = {image_ref_alt}
flavor_ref = {flavor_ref}
flavor_ref_alt = {flavor_ref_alt}
catalog_type = compute
endpoint_type = publicURL
min_microversion = {compute_min_version}
max_microversion = {compute_max_version}
build_interval = 1
build_timeout = 120
# One compute host, so one zone: nova (as Nova's default).
compute_volume_common_az = nova

[compute-feature-enabled]
# What a libvirt host of tether does for a server with no network,
# no agent in its guest and no config drive; each False is a feature
# tether does not serve (yet, for some: the conformance issue lists
# them).
change_password = False
console_output = True
resize = False
pause = True
shelve = False
suspend = True
cold_migration = False
live_migration = False
metadata_service = False
# Served (tests/functional/compute/test_rescue.py); the flag waits for
# a run of Tempest's rescue tests against the deployment.
rescue = True
# Tempest's stable device rescue tests make their rescue image with a
# server snapshot (createImage).
stable_rescue = True
enable_instance_password = True
interface_attach = False
# createImage and createBackup (tests/functional/compute/
# test_server_images.py).
snapshot = True
personality = False
attach_encrypted_volume = False
config_drive = False
vnc_console = False
spice_console = False
serial_console = False
swap_volume = False
volume_multiattach = False
disk_config = False
"""
