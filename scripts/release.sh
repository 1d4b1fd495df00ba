#!/usr/bin/env bash
# Makes a release from a clean tree, into dist/ (or the folder given as $DIST_DIR):
#
#   repo-reader_<version>_amd64.deb      the server (Debian 12)
#   repo-reader-dev_<version>_all.deb    the plugin SDK
#   repo-reader-<version>.oci.tar        the container image, an OCI archive (podman load -i)
#   server.json                          the server's description for the MCP registry
#   CHANGELOG.md
#   SHA256SUMS                           sha256sum -c SHA256SUMS checks them
#
# The version is CMakeLists.txt's `project(repo-reader VERSION ...)`, the one place it is set;
# CHANGELOG.md must have its entry and server.json must carry it (the build and
# tests/release/release_files_test.cc check the same). Needs root (the image's root filesystem);
# installs what it needs (scripts/setup.sh --package). Builds in build-release/ with no tests:
# run scripts/test.sh for those.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
  "") ;;
  -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "release.sh: no options but --help" >&2; exit 2 ;;
esac
die() { echo "release.sh: $*" >&2; exit 1; }

if [ -n "$(git status --porcelain --untracked-files=normal 2>/dev/null)" ]; then
  git status --short >&2
  die "the tree is not clean (above): commit or stash first, so the release is what is committed"
fi
version=$(sed -n 's/^project(repo-reader VERSION \([0-9][0-9.]*\) .*/\1/p' CMakeLists.txt)
[ -n "$version" ] || die "no project(repo-reader VERSION x.y.z ...) in CMakeLists.txt"
grep -q "^## \[$version\] - " CHANGELOG.md || die "CHANGELOG.md has no entry ## [$version] - DATE"
python3 - "$version" <<'EOF' || die "server.json does not carry version $version (its version and image tag)"
import json, sys
s = json.load(open("server.json"))
v = sys.argv[1]
assert s["version"] == v
for p in s.get("packages", []):
    assert (p["identifier"].rsplit(":", 1)[1] if p["registryType"] == "oci" else p["version"]) == v
EOF
[ "$(id -u)" -eq 0 ] || die "needs root (the image's root filesystem: chroot and mounts)"

t0=$(date +%s)
./scripts/setup.sh --package
build=build-release
dist=${DIST_DIR:-dist}
echo "== build $version ($build)"
rm -rf "$build"
BUILD_DIR=$build BUILD_TYPE=RelWithDebInfo ./scripts/build.sh -DRR_TESTS=OFF -DRR_SANITIZE=OFF \
  -DCMAKE_INSTALL_PREFIX=/usr
[ "$("$build/repo-reader" --version)" = "repo-reader $version" ] || die "the binary's version differs"

echo "== packages"
rm -rf "$dist"
mkdir -p "$dist"
(cd "$build" && cpack -G DEB -B "$PWD/packages" >/dev/null)
cp "$build/packages/repo-reader_${version}_amd64.deb" "$build/packages/repo-reader-dev_${version}_all.deb" "$dist/"
lintian --fail-on error,warning "$dist"/*.deb

echo "== image"
# The Debian base (mmdebstrap) and apt's downloads are kept in build-image-cache/ between
# releases (the base is made again once a week old).
packaging/image/build-image.sh "$dist/repo-reader_${version}_amd64.deb" \
  "$dist/repo-reader-$version.oci.tar" build-image-cache

cp server.json CHANGELOG.md "$dist/"
(cd "$dist" && sha256sum -- *.deb *.oci.tar server.json CHANGELOG.md >SHA256SUMS)
echo "== release $version in $dist/ ($(( $(date +%s) - t0 ))s)"
cat "$dist/SHA256SUMS"
