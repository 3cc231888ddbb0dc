#!/bin/bash
# Install what tether-aio needs (bindep profile "aio", Glance's
# virtualenv), start libvirt, build the tiny guest image, then run
# tether-aio in the foreground; the arguments go to tether-aio (try
# --help).
#
#   tools/tether-aio.sh [--state-dir DIR] [--volume-port PORT] ...
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
tools/install-deps.sh aio
# libvirt's qemu:///system runs the guests: start virtlogd and libvirtd
# where no init system did, and fix /dev/kvm's mode.
tools/start-libvirt.sh
# The first image of the cloud: a tiny Linux guest (tools/guest/), built
# once from Debian packages and uploaded as "tether-tiny" at the first
# start. QEMU (libvirt-qemu) reads nothing from here, Glance copies it.
image=${TETHER_AIO_FIRST_IMAGE:-${XDG_CACHE_HOME:-$HOME/.cache}/tether-guest/tether-tiny.raw}
if [ ! -s "$image" ]; then
    mkdir -p "$(dirname "$image")"
    tools/guest/build-image.sh "$image" --marker tether-tiny
fi
# The tether-aio script of that interpreter, whatever PATH says.
scripts=$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_path("scripts"))')
exec "$scripts/tether-aio" --first-image "$image" "$@"
