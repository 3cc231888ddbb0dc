#!/bin/bash
# Install what tether-aio needs (bindep profile "aio"), start libvirt, then
# run it in the foreground; the arguments go to tether-aio (try --help).
#
#   tools/tether-aio.sh [--state-dir DIR] [--volume-port PORT] ...
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
tools/install-deps.sh aio
# libvirt's qemu:///system runs the guests: start virtlogd and libvirtd
# where no init system did, and fix /dev/kvm's mode.
tools/start-libvirt.sh
# The tether-aio script of that interpreter, whatever PATH says.
scripts=$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_path("scripts"))')
exec "$scripts/tether-aio" "$@"
