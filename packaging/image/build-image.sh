#!/usr/bin/env bash
# The container image, built here from Debian's packages with no image registry:
#
#   build-image.sh DEB OUT.tar [CACHE]
#
# A Debian 12 root filesystem (mmdebstrap, packaging/rootfs.sh; its base and apt's downloads kept
# in CACHE, default ./image-cache) gets the package DEB with apt, loses apt's lists and caches,
# and becomes a one-layer OCI image (umoci), written as an OCI archive OUT.tar tagged
# repo-reader:<version>. It runs as the user `repo-reader` (by number, so Kubernetes'
# runAsNonRoot can check it), needs nothing writable but its volume /var/lib/repo-reader (and
# a /tmp), serves /etc/repo-reader/config.yaml over HTTP on port 8080, and carries
# /usr/lib/repo-reader/healthcheck for a runtime's health check (GET /healthz). Load it with
# `podman load -i OUT.tar`; docs/operating.md has the run and Kubernetes examples.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "build-image.sh: $*" >&2; exit 1; }
[ $# -ge 2 ] || die "usage: build-image.sh DEB OUT.tar [CACHE]"
deb=$(realpath "$1")
out=$(realpath -m "$2")
cache=$(realpath -m "${3:-image-cache}")
command -v umoci >/dev/null || die "umoci is not installed (apt-get install umoci)"
version=$(dpkg-deb -f "$deb" Version)
[ "$(dpkg-deb -f "$deb" Package)" = repo-reader ] || die "$deb is not the repo-reader package"

work=$cache/image-work
root=$work/root
rm -rf "$work"
mkdir -p "$work"
# Without the package's recommends but git (mirrors sync with it): no ssh client, no xauth.
RR_APT_OPTS=--no-install-recommends "$here/../rootfs.sh" install "$cache" "$root" "$deb" git

# What a running server never needs: apt's lists and downloads, the host's resolver, logs.
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives \
  "$root"/var/log/* "$root"/tmp/* "$root"/etc/resolv.conf
mkdir -p "$root/var/cache/apt/archives/partial"
: >"$root/etc/resolv.conf"
# The image listens on 0.0.0.0: its configuration names the token's variable (the example's
# two commented lines turned on), so it starts only with REPO_READER_TOKEN set.
sed -i 's/^#http:$/http:/; s/^#  token_env: REPO_READER_TOKEN$/  token_env: REPO_READER_TOKEN/' \
  "$root/etc/repo-reader/config.yaml"
grep -q '^  token_env: REPO_READER_TOKEN$' "$root/etc/repo-reader/config.yaml" ||
  die "the example configuration has no '#  token_env: REPO_READER_TOKEN' line to turn on"
uid=$(awk -F: '$1 == "repo-reader" {print $3}' "$root/etc/passwd")
gid=$(awk -F: '$1 == "repo-reader" {print $4}' "$root/etc/passwd")
[ -n "$uid" ] && [ "$uid" -ne 0 ] || die "the package made no user repo-reader in the image"
install -d -o "$uid" -g "$gid" -m 0750 "$root/var/lib/repo-reader"

layout=$work/oci
tag=repo-reader:$version
umoci init --layout "$layout"
umoci new --image "$layout:$tag"
umoci unpack --image "$layout:$tag" "$work/bundle" >/dev/null
cp -a "$root/." "$work/bundle/rootfs/"
umoci repack --image "$layout:$tag" "$work/bundle"
created=$(date -u -d "@$(stat -c %Y "$deb")" +%Y-%m-%dT%H:%M:%SZ)
umoci config --image "$layout:$tag" \
  --config.user "$uid:$gid" \
  --config.entrypoint /usr/bin/repo-reader \
  --config.cmd --config --config.cmd /etc/repo-reader/config.yaml \
  --config.cmd --http --config.cmd 0.0.0.0:8080 \
  --config.exposedports 8080/tcp \
  --config.volume /var/lib/repo-reader \
  --config.workingdir /var/lib/repo-reader \
  --config.env HOME=/var/lib/repo-reader \
  --config.env XDG_CACHE_HOME=/var/lib/repo-reader/cache \
  --config.label "org.opencontainers.image.title=repo-reader" \
  --config.label "org.opencontainers.image.version=$version" \
  --config.label "org.opencontainers.image.description=read-only MCP server for git repositories" \
  --config.label "org.opencontainers.image.base.name=debian:bookworm (mmdebstrap)" \
  --config.label "io.repo-reader.healthcheck=/usr/lib/repo-reader/healthcheck 8080" \
  --created "$created" --author "repo-reader" \
  --history.comment "repo-reader $version on Debian 12, from Debian's packages"
umoci gc --layout "$layout"
# OCI archive: the layout as a tar; podman load, skopeo copy oci-archive: and others read it.
# Its tag, repo-reader:<version>, is the name podman load gives it (localhost/repo-reader:<version>).
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="$created" -C "$layout" -cf "$out" .
rm -rf "$work/bundle"
echo "build-image.sh: $out (repo-reader $version, user $uid:$gid, $(du -h "$out" | cut -f1))"
