#!/usr/bin/env bash
# Debian 12 root filesystems for the package test and the container image, made from Debian's
# own packages with mmdebstrap (no image registry). Needs root (chroot, mounts).
#
#   rootfs.sh base CACHE            make CACHE/bookworm-base.tar (variant apt, man-db), once:
#                                   kept while younger than a week, so reruns skip it
#   rootfs.sh install CACHE ROOT DEB...
#                                   ROOT = that base, fresh, then `apt-get install ./DEB...`
#                                   inside it, as a user would (downloads kept in CACHE/archives);
#                                   a DEB that is no file is a package name from Debian;
#                                   $RR_APT_OPTS adds options to apt-get install
#   rootfs.sh run ROOT CMD...       run CMD in ROOT (chroot, with /dev and /proc, in its own
#                                   mount and PID namespaces: everything it started ends with it)
#
# The mirror is Debian's (RR_DEBIAN_MIRROR to change it), with bookworm-updates and the security
# archive, so the libraries are those a Debian 12 machine gets.
set -euo pipefail

mirror=${RR_DEBIAN_MIRROR:-http://deb.debian.org/debian}
security=${RR_DEBIAN_SECURITY:-http://deb.debian.org/debian-security}

die() { echo "rootfs.sh: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "needs root (chroot and mounts); run it as root"

base() {
  local cache=$1 tar=$1/bookworm-base.tar
  mkdir -p "$cache"
  if [ -s "$tar" ] && [ -z "$(find "$tar" -mtime +6)" ]; then
    return 0
  fi
  command -v mmdebstrap >/dev/null || die "mmdebstrap is not installed (apt-get install mmdebstrap)"
  echo "rootfs.sh: making a Debian 12 base with mmdebstrap (kept in $tar)" >&2
  # The package lists stay in the tarball (skip cleanup/apt/lists), so an install needs no
  # `apt-get update` until they are a week old.
  mmdebstrap --quiet --variant=apt --mode=root --format=tar --include=man-db \
    --skip=cleanup/apt/lists \
    bookworm "$tar.part" \
    "deb $mirror bookworm main" "deb $mirror bookworm-updates main" \
    "deb $security bookworm-security main"
  mv "$tar.part" "$tar"
}

run() {
  local root; root=$(cd "$1" && pwd); shift
  local archives=${RR_APT_ARCHIVES:-}
  # A private mount namespace: the mounts vanish with it, nothing leaks onto the host. exec:
  # this process becomes unshare, so a signal to it ends everything started in ROOT.
  exec unshare --mount --pid --fork --kill-child --propagation private /bin/bash -c '
    set -e
    root=$1; archives=$2; shift 2
    mount --rbind /dev "$root/dev"
    mount -t proc proc "$root/proc"
    if [ -n "$archives" ]; then
      mkdir -p "$archives" "$root/var/cache/apt/archives"
      mount --bind "$archives" "$root/var/cache/apt/archives"
    fi
    exec chroot "$root" "$@"' rootfs-run "$root" "$archives" "$@"
}

install_debs() {
  local cache=$1 root=$2; shift 2
  [ $# -gt 0 ] || die "install: name the .deb files"
  base "$cache"
  rm -rf "$root"
  mkdir -p "$root"
  tar -C "$root" -xf "$cache/bookworm-base.tar"
  cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
  # man-db's index is rebuilt after every install unless this is gone (`man` needs no index).
  rm -f "$root/var/lib/man-db/auto-update"
  mkdir -p "$root/tmp/debs"
  local names=()
  for d in "$@"; do
    if [ -f "$d" ]; then
      cp "$d" "$root/tmp/debs/"
      names+=("./tmp/debs/$(basename "$d")")
    else
      names+=("$d")  # a package from Debian
    fi
  done
  # RR_APT_OPTS: more options for apt-get install (the image: --no-install-recommends)
  read -r -a opts <<<"${RR_APT_OPTS:-}"
  names=("${opts[@]}" "${names[@]}")
  export RR_APT_ARCHIVES=$cache/archives
  # As a user would: apt-get install ./repo-reader_<version>_amd64.deb, its dependencies from
  # Debian. Lists a week old may name files the mirror no longer has: update, then once more.
  if ! run "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${names[@]}"; then
    run "$root" apt-get update -q
    run "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${names[@]}"
  fi
  rm -rf "$root/tmp/debs"
}

cmd=${1:-}
shift || true
case "$cmd" in
  base) [ $# -eq 1 ] || die "usage: rootfs.sh base CACHE"; base "$1" ;;
  install) [ $# -ge 3 ] || die "usage: rootfs.sh install CACHE ROOT DEB..."; install_debs "$@" ;;
  run) [ $# -ge 2 ] || die "usage: rootfs.sh run ROOT CMD..."; run "$@" ;;
  *) die "usage: rootfs.sh base CACHE | install CACHE ROOT DEB... | run ROOT CMD..." ;;
esac
