#!/bin/bash
# Make libvirt's qemu:///system usable on a host without systemd (a CI
# machine, a container, a development VM), then wait until it answers.
#
#   tools/start-libvirt.sh          (as root; idempotent, fast when running)
#
#  1. /dev/kvm, if it exists, gets group kvm and mode 660. Left at
#     root:root 0600, libvirt finds KVM "enabled when probing but not
#     available now", calls its capabilities cache outdated and probes QEMU
#     again on every API call: each define then takes about a minute.
#  2. virtlogd (QEMU's log daemon) is started if it is not running.
#  3. libvirtd is started if it is not running: under `tini -s` when tini
#     is installed. tini is then the subreaper of the QEMU processes libvirt
#     starts, and reaps each one as it exits; an init that reaps late leaves
#     a stopped QEMU a zombie that libvirt waits for (destroy took 1.2-2 s
#     instead of 0.2 s on such a machine).
#  4. It waits until `virsh -c qemu:///system version` answers (8-12 s the
#     first time libvirtd probes QEMU, then well under a second), at most
#     LIBVIRT_START_TIMEOUT seconds (default 90).
#
# Parallel callers (pytest-xdist workers) are serialized with flock, so one
# daemon is started. Exit status: 0 ready, 1 failed, 3 libvirt is not
# installed (tools/install-deps.sh test installs it).
set -euo pipefail

export PATH="$PATH:/usr/sbin:/sbin"
URI=qemu:///system
TIMEOUT=${LIBVIRT_START_TIMEOUT:-90}
LOG_DIR=/var/log/libvirt
LOCK_DIR=/run/lock
[ -d "$LOCK_DIR" ] || LOCK_DIR=/tmp

say() { echo "start-libvirt: $*" >&2; }

for cmd in libvirtd virtlogd virsh; do
    if ! command -v "$cmd" >/dev/null; then
        say "$cmd is not installed (bindep: libvirt-daemon-system" \
            "libvirt-clients; tools/install-deps.sh test)"
        exit 3
    fi
done

answers() {
    timeout 10 virsh -c "$URI" version >/dev/null 2>&1
}

# A daemon is running if its pid file names a live process (not a zombie:
# an init that reaps late keeps exited daemons as zombies for a while).
running() {
    local pid state
    pid=$(cat "/run/$1.pid" 2>/dev/null) || return 1
    [ -n "$pid" ] && [ -r "/proc/$pid/stat" ] || return 1
    state=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null) || return 1
    [ "$state" != Z ] && [ "$state" != X ]
}

# Even with libvirtd already running (started by someone else), or the
# next define takes a minute.
if [ -c /dev/kvm ] && [ "$(stat -c %G:%a /dev/kvm)" != kvm:660 ]; then
    if [ "$(id -u)" != 0 ]; then
        say "warning: /dev/kvm is not kvm:660 and only root can change it"
    elif getent group kvm >/dev/null; then
        chgrp kvm /dev/kvm && chmod 660 /dev/kvm
    else
        say "warning: no group kvm; /dev/kvm left as it is"
    fi
fi

if running virtlogd && answers; then
    exit 0
fi
if [ "$(id -u)" != 0 ]; then
    say "libvirtd/virtlogd are not running and only root can start them"
    exit 1
fi

exec 9>"$LOCK_DIR/tether-start-libvirt.lock"
flock -w "$TIMEOUT" 9

mkdir -p "$LOG_DIR"
if ! running virtlogd; then
    say "starting virtlogd"
    virtlogd -d
fi
if ! running libvirtd; then
    if command -v tini >/dev/null; then
        say "starting libvirtd under tini -s (log: $LOG_DIR/tether-libvirtd.log)"
        setsid tini -s -- libvirtd </dev/null \
            >>"$LOG_DIR/tether-libvirtd.log" 2>&1 &
    else
        say "starting libvirtd -d (no tini: destroy waits for the init" \
            "to reap QEMU)"
        libvirtd -d
    fi
fi

deadline=$((SECONDS + TIMEOUT))
until answers; do
    if [ $SECONDS -ge $deadline ]; then
        say "libvirtd did not answer on $URI within ${TIMEOUT}s;" \
            "see $LOG_DIR/tether-libvirtd.log"
        exit 1
    fi
    sleep 0.2
done
say "libvirt answers on $URI"
