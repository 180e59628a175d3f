#!/usr/bin/env bash
# Mounts the file systems the backup tests (txn-core, org.tcnfs.txn.backup) run on, idempotently and quickly:
#   - XFS made with `mkfs.xfs -m reflink=1` on a loop device: FICLONERANGE works;
#   - ext4 on a loop device: FICLONERANGE is refused (EOPNOTSUPP), the copy fallback runs;
#   - tmpfs: no reflink either, and no block device at all.
# The images are sparse files under $TCNFS_TEST_FS_IMAGES (default /var/tmp/tcnfs-test-fs). A second run
# reuses what is there: a mount that is already up is left alone, a loop device still attached to an image
# is reused (never a new loop device per run), an image is formatted only when it has no file system of the
# right type yet. Runs are serialized with flock, so parallel test JVMs can call it at once.
#
# Usage: mount-test-fs.sh [up|status|down|purge]
#   up      (default) mount everything that is not mounted yet, then print the mount points
#   status  print the mount points that are up (nothing is changed; exit 77 if one is missing)
#   down    unmount all three and detach the loop devices (images stay)
#   purge   down, then delete the images
# Output of up/status on stdout, one line each, for scripts and tests:
#   TCNFS_XFS_DIR=/mnt/tcnfs-xfs
#   TCNFS_EXT4_DIR=/mnt/tcnfs-ext4
#   TCNFS_TMPFS_DIR=/mnt/tcnfs-tmpfs
# Mount points can be moved with TCNFS_XFS_MNT, TCNFS_EXT4_MNT, TCNFS_TMPFS_MNT. Their roots are mode 1777
# (like /tmp), so tests run by any user can use them once root has mounted them.
# Exit status: 0 done; 77 this machine cannot do it (not root, no loop devices, mounting not permitted,
# mkfs missing): callers skip; anything else is a real failure.
set -euo pipefail

IMAGES=${TCNFS_TEST_FS_IMAGES:-/var/tmp/tcnfs-test-fs}
XFS_MNT=${TCNFS_XFS_MNT:-/mnt/tcnfs-xfs}
EXT4_MNT=${TCNFS_EXT4_MNT:-/mnt/tcnfs-ext4}
TMPFS_MNT=${TCNFS_TMPFS_MNT:-/mnt/tcnfs-tmpfs}
XFS_IMAGE=$IMAGES/xfs-reflink.img
EXT4_IMAGE=$IMAGES/ext4.img
XFS_SIZE=512M    # mkfs.xfs refuses file systems below 300 MiB
EXT4_SIZE=256M
TMPFS_SIZE=256m
SKIP=77

log() { echo "mount-test-fs: $*" >&2; }
skip() { log "cannot mount test file systems here: $*"; exit "$SKIP"; }

# The file system type mounted exactly at $1, or nothing.
fstype_at() { findmnt -n -o FSTYPE --mountpoint "$1" 2>/dev/null | head -n 1 || true; }

print_mounts() {
  echo "TCNFS_XFS_DIR=$XFS_MNT"
  echo "TCNFS_EXT4_DIR=$EXT4_MNT"
  echo "TCNFS_TMPFS_DIR=$TMPFS_MNT"
}

status() {
  local ok=1
  [[ $(fstype_at "$XFS_MNT") == xfs ]] || { log "$XFS_MNT: no xfs mounted"; ok=0; }
  [[ $(fstype_at "$EXT4_MNT") == ext4 ]] || { log "$EXT4_MNT: no ext4 mounted"; ok=0; }
  [[ $(fstype_at "$TMPFS_MNT") == tmpfs ]] || { log "$TMPFS_MNT: no tmpfs mounted"; ok=0; }
  ((ok)) || exit "$SKIP"
  print_mounts
}

# The loop device attached to image $1, attaching one only when none is (reuse keeps runs from piling up
# loop devices).
loop_device_for() {
  local image=$1 dev
  dev=$(losetup -n -O NAME -j "$image" 2>/dev/null | head -n 1 || true)
  if [[ -z $dev ]]; then
    dev=$(losetup --find --show "$image" 2>&1) || skip "losetup: $dev"
  fi
  echo "$dev"
}

# mount_image IMAGE SIZE FSTYPE MOUNTPOINT MKFS...
mount_image() {
  local image=$1 size=$2 type=$3 mnt=$4
  shift 4
  local current
  current=$(fstype_at "$mnt")
  if [[ -n $current ]]; then
    [[ $current == "$type" ]] || { log "$mnt already has a $current file system mounted, not $type; not touching it"; exit 1; }
    return 0
  fi
  mkdir -p "$mnt"
  if [[ ! -f $image ]]; then
    truncate -s "$size" "$image"
  fi
  local dev
  dev=$(loop_device_for "$image")
  if [[ $(blkid -p -o value -s TYPE "$dev" 2>/dev/null || true) != "$type" ]]; then
    log "formatting $image ($dev) as $type"
    "$@" "$dev" >/dev/null
  fi
  local out
  out=$(mount -t "$type" "$dev" "$mnt" 2>&1) || skip "mount $dev on $mnt: $out"
  chmod 1777 "$mnt" # like /tmp: test runs as any user can make their own directories
}

# The image of an XFS mount must have reflink enabled, or the tests would test the fallback twice.
check_reflink() {
  if command -v xfs_info >/dev/null 2>&1 && ! xfs_info "$XFS_MNT" 2>/dev/null | grep -q 'reflink=1'; then
    log "$XFS_MNT is XFS without reflink=1; run '$0 purge' and retry"
    exit 1
  fi
}

up() {
  [[ $(id -u) -eq 0 ]] || skip "not root"
  command -v mkfs.xfs >/dev/null 2>&1 || skip "mkfs.xfs missing (scripts/install-test-deps.sh installs xfsprogs)"
  command -v mkfs.ext4 >/dev/null 2>&1 || skip "mkfs.ext4 missing"
  command -v losetup >/dev/null 2>&1 || skip "losetup missing"
  [[ -e /dev/loop-control || -e /dev/loop0 ]] || skip "no loop devices (/dev/loop-control)"
  mount_image "$XFS_IMAGE" "$XFS_SIZE" xfs "$XFS_MNT" mkfs.xfs -q -f -m reflink=1
  check_reflink
  mount_image "$EXT4_IMAGE" "$EXT4_SIZE" ext4 "$EXT4_MNT" mkfs.ext4 -q -F
  if [[ -z $(fstype_at "$TMPFS_MNT") ]]; then
    mkdir -p "$TMPFS_MNT"
    local out
    out=$(mount -t tmpfs -o "size=$TMPFS_SIZE,mode=1777" tcnfs-tmpfs "$TMPFS_MNT" 2>&1) || skip "mount tmpfs on $TMPFS_MNT: $out"
  elif [[ $(fstype_at "$TMPFS_MNT") != tmpfs ]]; then
    log "$TMPFS_MNT has a $(fstype_at "$TMPFS_MNT") file system mounted, not tmpfs; not touching it"
    exit 1
  fi
  print_mounts
}

down() {
  local mnt image dev
  for mnt in "$XFS_MNT" "$EXT4_MNT" "$TMPFS_MNT"; do
    if [[ -n $(fstype_at "$mnt") ]]; then
      umount "$mnt"
    fi
  done
  for image in "$XFS_IMAGE" "$EXT4_IMAGE"; do
    [[ -f $image ]] || continue
    for dev in $(losetup -n -O NAME -j "$image" 2>/dev/null || true); do
      losetup -d "$dev"
    done
  done
}

command=${1:-up}
case $command in
  up | down | purge)
    [[ $(id -u) -eq 0 ]] || skip "not root"
    mkdir -p "$IMAGES"
    exec 9>"$IMAGES/.lock"
    flock 9
    case $command in
      up) up ;;
      down) down ;;
      purge) down; rm -f "$XFS_IMAGE" "$EXT4_IMAGE" ;;
    esac
    ;;
  status) status ;;
  *) log "usage: $0 [up|status|down|purge]"; exit 2 ;;
esac
