#!/bin/bash
# Build tether's tiny test guest: a BIOS-bootable disk image made from
# Debian packages only (a cloud kernel and a static busybox).
#
#   tools/guest/build-image.sh OUT [--marker NAME] [--cache DIR]
#                              [--format raw|qcow2] [--kernel PKG]
#                              [--append 'ARGS'] [--boot-files DIR]
#
#   OUT           the image to write (replaced atomically; idempotent)
#   --marker      a name baked into the image; the guest prints it on its
#                 console (TETHER-GUEST-UP marker=NAME). Default tether-tiny.
#                 Letters, digits, '.', '_' and '-' only.
#   --cache       where the downloaded .deb files are kept and reused
#                 (default $TETHER_GUEST_CACHE, else ~/.cache/tether-guest)
#   --format      raw (default) or qcow2 (compressed); default from OUT's
#                 extension (.qcow2 -> qcow2)
#   --kernel      the kernel package, a metapackage or a versioned one
#                 (default linux-image-cloud-amd64)
#   --append      more kernel arguments (e.g. tether.shares=a,b)
#   --boot-files  also copy vmlinuz and initramfs.gz there (direct boots)
#
# The image: an MBR with syslinux's boot code and one bootable FAT16
# partition (at 1 MiB) holding SYSLINUX, the kernel, the initramfs (busybox,
# tools/guest/init as /init, the few modules it needs) and syslinux.cfg.
# Nothing is mounted: mtools writes the FAT file system into a plain file,
# so neither root nor a loop device is needed (root is needed only if apt
# has to download packages into a cache it cannot otherwise write).
#
# Debian packages it needs (bindep.txt, profile guest): syslinux,
# syslinux-common (MBR code), mtools, dosfstools (mkfs.vfat), fdisk (sfdisk),
# qemu-utils (qemu-img, for qcow2), apt and dpkg (apt-get download,
# dpkg-deb), gzip. The kernel and busybox-static .debs are downloaded, not
# installed: the host's /boot is left alone.
#
# See tools/guest/README.rst for what the guest does and its console
# protocol.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
INIT=$HERE/init
OUT=
MARKER=tether-tiny
CACHE=${TETHER_GUEST_CACHE:-${HOME:-/root}/.cache/tether-guest}
FORMAT=
KERNEL_PKG=linux-image-cloud-amd64
APPEND=
BOOT_FILES=
MBR_BIN=/usr/lib/syslinux/mbr/mbr.bin
# Kernel modules the guest loads, in this order (their dependencies are
# added in front of them). scsi_mod gets scan=sync (see below).
MODULES="qemu_fw_cfg virtio_pci virtio_scsi sd_mod virtio_blk fuse virtiofs
         button evdev vfat nls_cp437 nls_ascii"
PART_START=2048                     # sectors: the partition starts at 1 MiB
SLACK_KIB=2048                      # free room in the FAT (stamps, rounding)

say() { echo "build-image: $*" >&2; }
die() { say "error: $*"; exit 1; }
usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0" >&2; exit 2; }

while [ $# -gt 0 ]; do
    case "$1" in
        --marker) MARKER=${2?}; shift 2 ;;
        --cache) CACHE=${2?}; shift 2 ;;
        --format) FORMAT=${2?}; shift 2 ;;
        --kernel) KERNEL_PKG=${2?}; shift 2 ;;
        --append) APPEND=${2?}; shift 2 ;;
        --boot-files) BOOT_FILES=${2?}; shift 2 ;;
        -h|--help) usage ;;
        -*) say "unknown option $1"; usage ;;
        *) [ -z "$OUT" ] || usage; OUT=$1; shift ;;
    esac
done
[ -n "$OUT" ] || usage
if [ -z "$FORMAT" ]; then
    case "$OUT" in *.qcow2) FORMAT=qcow2 ;; *) FORMAT=raw ;; esac
fi
case "$FORMAT" in raw|qcow2) ;; *) die "--format must be raw or qcow2" ;; esac
[[ $MARKER =~ ^[A-Za-z0-9._-]{1,64}$ ]] \
    || die "--marker: 1-64 letters, digits, '.', '_' or '-'"
for tool in apt-get apt-cache dpkg-deb mkfs.vfat mcopy mmd syslinux sfdisk \
            gzip; do
    command -v "$tool" >/dev/null || die "$tool is missing (bindep.txt:" \
        "syslinux syslinux-common mtools dosfstools fdisk)"
done
[ -r "$MBR_BIN" ] || die "$MBR_BIN is missing (package syslinux-common)"
if [ "$FORMAT" = qcow2 ]; then
    command -v qemu-img >/dev/null || die "qemu-img is missing (qemu-utils)"
fi
[ -r "$INIT" ] || die "$INIT is missing"

# --- the packages: apt-get download into the cache, reused later ----------

mkdir -p "$CACHE"
CACHE=$(cd "$CACHE" && pwd)
APT_OPTS=(-q -o APT::Sandbox::User=root)     # the cache need not be _apt's

# What apt knows of the packages, in one call: each apt-cache run parses all
# the package lists (0.5-2 s where, as in Debian's container images, apt
# keeps no binary cache of them).
apt_info() { apt-cache show --no-all-versions "$@" 2>/dev/null || true; }
APT_INFO=$(apt_info "$KERNEL_PKG" busybox-static)

field() {  # PKG FIELD -> the field of PKG's candidate in APT_INFO
    awk -v p="$1" -v f="$2: " '
        /^Package: / { cur = $2 }
        cur == p && index($0, f) == 1 { print substr($0, length(f) + 1); exit }
    ' <<< "$APT_INFO"
}

newest_cached() {  # GLOB -> the cached .deb with the highest version
    local f best= bestv= v
    for f in "$CACHE"/$1; do
        [ -s "$f" ] || continue
        v=$(dpkg-deb -f "$f" Version 2>/dev/null) || continue
        if [ -z "$best" ] || dpkg --compare-versions "$v" gt "$bestv"; then
            best=$f bestv=$v
        fi
    done
    [ -n "$best" ] && echo "$best"
}

fetch() {  # PKG VERSION -> path of its .deb in the cache (downloaded if
           # missing); with no VERSION (apt knows none), the newest cached
    local pkg=$1 ver=$2 file tmp
    if [ -z "$ver" ]; then
        # apt has no lists (no apt-get update) or no network: use the cache.
        file=$(newest_cached "${pkg}_*.deb") \
            || die "apt knows no package $pkg and none is cached in $CACHE"
        say "apt knows no $pkg; using the cached ${file##*/}"
        echo "$file"; return
    fi
    for file in "$CACHE/${pkg}_${ver//:/%3a}"_*.deb; do
        if [ -s "$file" ]; then echo "$file"; return; fi
    done
    # Download into a private directory and move into place: an interrupted
    # download never leaves a truncated .deb under its final name.
    tmp=$(mktemp -d "$CACHE/.download.XXXXXX")
    if ! (cd "$tmp" && apt-get "${APT_OPTS[@]}" download "$pkg=$ver" >&2); then
        rm -rf "$tmp"; die "apt-get download $pkg=$ver failed"
    fi
    for file in "$tmp"/*.deb; do
        mv -f "$file" "$CACHE/"
        echo "$CACHE/${file##*/}"
    done
    rm -rf "$tmp"
}

# The versioned kernel package and its version: --kernel itself, or what
# the metapackage depends on ("linux-image-6.1.0-56-cloud-amd64 (= 6.1.192-2)")
KPKG=$KERNEL_PKG KVERSION=$(field "$KERNEL_PKG" Version)
case "$KERNEL_PKG" in
    linux-image-[0-9]*) ;;
    *)
        read -r KPKG KVERSION < <(field "$KERNEL_PKG" Depends | tr , '\n' \
            | sed -n 's/^ *\(linux-image-[0-9][^ ]*\)\( (= \([^)]*\))\)\{0,1\}.*/\1 \3/p' \
            | head -n1) || true
        if [ -z "$KPKG" ]; then
            # No apt lists: the newest kernel of this flavour in the cache.
            KPKG=$(newest_cached \
                   "linux-image-[0-9]*-${KERNEL_PKG#linux-image-}_*.deb") \
                || die "apt knows no $KERNEL_PKG and no kernel is cached"
            KPKG=${KPKG##*/} KPKG=${KPKG%%_*} KVERSION=
        elif [ -z "$KVERSION" ]; then
            APT_INFO=$(apt_info "$KPKG"); KVERSION=$(field "$KPKG" Version)
        fi ;;
esac
KDEB=$(fetch "$KPKG" "$KVERSION")
BBDEB=$(fetch busybox-static "$(field busybox-static Version)")
say "kernel ${KDEB##*/}, busybox ${BBDEB##*/} (cache $CACHE)"

# --- unpack ------------------------------------------------------------

WORK=$(mktemp -d "${TMPDIR:-/tmp}/tether-guest.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
dpkg-deb -x "$KDEB" "$WORK/kpkg"
dpkg-deb -x "$BBDEB" "$WORK/bb"
KVER=$(ls "$WORK/kpkg/lib/modules")
[ "$(echo "$KVER" | wc -w)" = 1 ] || die "not one kernel in $KDEB: $KVER"
MODDIR=$WORK/kpkg/lib/modules/$KVER
VMLINUZ=$WORK/kpkg/boot/vmlinuz-$KVER
BUSYBOX=$WORK/bb/bin/busybox
[ -r "$VMLINUZ" ] || die "no /boot/vmlinuz-$KVER in $KDEB"
[ -x "$BUSYBOX" ] || die "no /bin/busybox in $BBDEB"

# --- kernel modules: dependencies first, read from each module -----------
# Debian's modules are not compressed (CONFIG_MODULE_COMPRESS_NONE) and the
# package ships no modules.dep (depmod runs at install time): a module's
# "depends=" entry in its .modinfo strings names what it needs.

declare -A MODPATH=() SEEN=()
ORDER=()
while IFS= read -r -d '' f; do
    n=${f##*/}; n=${n%.ko}; MODPATH[${n//-/_}]=$f
done < <(find "$MODDIR/kernel" -name '*.ko' -print0)

add_module() {
    local m=${1//-/_} f dep
    [ -z "${SEEN[$m]:-}" ] || return 0
    SEEN[$m]=1
    f=${MODPATH[$m]:-}
    if [ -z "$f" ]; then
        tr - _ < "$MODDIR/modules.builtin" | grep -q "/$m\.ko$" \
            || die "kernel module $m is neither in $KPKG nor built in"
        return 0                            # built into the kernel
    fi
    for dep in $(tr '\0' '\n' < "$f" | sed -n 's/^depends=//p' | tr , ' '); do
        add_module "$dep"
    done
    ORDER+=("$m")
}
for m in $MODULES; do add_module "$m"; done

# --- the initramfs ---------------------------------------------------------

ROOT=$WORK/root
mkdir -p "$ROOT"/{bin,dev,etc/tether,lib/modules,mnt,proc,run,sys,tmp}
cp "$BUSYBOX" "$ROOT/bin/busybox"
ln -s busybox "$ROOT/bin/sh"
ln -s ../init "$ROOT/bin/tether-guest"   # its subcommands, for commands
install -m 0755 "$INIT" "$ROOT/init"
for m in "${ORDER[@]}"; do
    cp "${MODPATH[$m]}" "$ROOT/lib/modules/$m.ko"
    # scan=sync: insmod virtio_scsi returns only once its LUNs are scanned,
    # so the disks are there when /init lists them (busybox insmod does not
    # read scsi_mod.scan= from the kernel command line).
    if [ "$m" = scsi_mod ]; then echo "$m scan=sync"; else echo "$m"; fi
done > "$ROOT/lib/modules/load-order"
echo "$MARKER" > "$ROOT/etc/tether/marker"
printf 'kernel=%s\nbusybox=%s\nbuilt=%s\n' "$KVER" "${BBDEB##*/}" \
    "$(date -u +%Y-%m-%dT%H:%M:%SZ)" > "$ROOT/etc/tether/build"

# The kernel opens /dev/console for /init before /init can mount devtmpfs,
# so the archive needs that device node. It is written as a cpio entry of
# its own (newc format: a 110-byte ASCII header, the name, NUL padding to 4
# bytes) rather than made with mknod, which would need root.
newc_entry() {  # NAME MODE(octal) RDEVMAJOR RDEVMINOR
    local name=$1 mode=$2 hdr pad
    hdr=$(printf '070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X' \
        0 "$((8#$mode))" 0 0 1 0 0 0 0 "$3" "$4" "$(( ${#name} + 1 ))" 0)
    pad=$(( (4 - (110 + ${#name} + 1) % 4) % 4 ))
    printf '%s%s\0' "$hdr" "$name"
    head -c "$pad" /dev/zero
}
{
    newc_entry dev 040755 0 0
    newc_entry dev/console 020600 5 1
    newc_entry TRAILER!!! 0 0 0
    (cd "$ROOT" && find . | LC_ALL=C sort \
        | "$BUSYBOX" cpio -o -H newc -R 0:0 --renumber-inodes --ignore-devno \
            2>/dev/null)
} | gzip -9 -n > "$WORK/initramfs.gz"

# --- the FAT partition ---------------------------------------------------

# The FAT volume ID is random per build and named on the kernel command line
# (tether.bootid=): the guest finds its boot partition by it.
VOLID=$(od -An -N4 -tx4 /dev/urandom | tr -d ' \n' | tr a-f A-F)
BOOTID=${VOLID:0:4}-${VOLID:4:4}
CMDLINE="console=ttyS0,115200 panic=-1 quiet tether.bootid=$BOOTID"
[ -z "$APPEND" ] || CMDLINE="$CMDLINE $APPEND"
cat > "$WORK/syslinux.cfg" <<EOF
# tether test guest ($MARKER), made by tools/guest/build-image.sh
SERIAL 0 115200
PROMPT 0
TIMEOUT 0
DEFAULT tether
LABEL tether
  KERNEL /vmlinuz
  INITRD /initramfs.gz
  APPEND $CMDLINE
EOF
cp "$VMLINUZ" "$WORK/vmlinuz"
payload=$(( $(stat -c %s "$WORK/vmlinuz") + $(stat -c %s "$WORK/initramfs.gz") ))
part_mib=$(( (payload / 1024 + SLACK_KIB + 1023) / 1024 ))
PART=$WORK/part.fat
mkfs.vfat -C -F 16 -n TETHERBOOT -i "$VOLID" "$PART" $(( part_mib * 1024 )) \
    >/dev/null
export MTOOLS_SKIP_CHECK=1
mcopy -i "$PART" "$WORK/syslinux.cfg" "$WORK/vmlinuz" "$WORK/initramfs.gz" ::/
mmd -i "$PART" ::/stamps
syslinux --install "$PART"     # boot sector + ldlinux.sys/.c32, via mtools

# --- the disk: MBR boot code, one bootable partition -----------------------

RAW=$WORK/disk.raw
truncate -s $(( PART_START * 512 + part_mib * 1024 * 1024 )) "$RAW"
# type e: FAT16 (LBA); '*': bootable, which syslinux's MBR code looks for
echo "$PART_START,$(( part_mib * 2048 )),e,*" \
    | sfdisk --quiet --label dos "$RAW"
dd if="$MBR_BIN" of="$RAW" bs=440 count=1 conv=notrunc status=none
dd if="$PART" of="$RAW" bs=1M seek=$(( PART_START / 2048 )) conv=notrunc \
    status=none

# --- out -----------------------------------------------------------------

mkdir -p "$(dirname "$OUT")"
TMP_OUT=$(mktemp "$(dirname "$OUT")/.$(basename "$OUT").XXXXXX")
if [ "$FORMAT" = qcow2 ]; then
    qemu-img convert -q -c -f raw -O qcow2 "$RAW" "$TMP_OUT"
else
    cp --sparse=always "$RAW" "$TMP_OUT"
fi
chmod 0644 "$TMP_OUT"
mv -f "$TMP_OUT" "$OUT"
if [ -n "$BOOT_FILES" ]; then
    mkdir -p "$BOOT_FILES"
    cp "$WORK/vmlinuz" "$WORK/initramfs.gz" "$BOOT_FILES/"
    echo "$CMDLINE" > "$BOOT_FILES/cmdline"
fi
size=$(stat -c %s "$OUT")
say "kernel $KVER, modules: ${ORDER[*]}"
say "vmlinuz $(stat -c %s "$WORK/vmlinuz") bytes," \
    "initramfs.gz $(stat -c %s "$WORK/initramfs.gz") bytes, marker $MARKER"
say "wrote $OUT: $FORMAT, $size bytes ($(( (size + 524288) / 1048576 )) MiB)"
