#!/usr/bin/env bash
# Installs what repo-reader needs from Debian 12's packages:
#   setup.sh            what the server needs to build and run (scripts/run.sh, scripts/build.sh)
#   setup.sh --package  that, and what makes the packages and the image (scripts/release.sh)
#   setup.sh --test     all of that, and the test tools (scripts/test.sh)
#   setup.sh --bench    the server's, and what the benchmarks compare with (bench/)
# Idempotent: when everything is already there it asks apt nothing and returns at once.
set -euo pipefail

# The server: the compiler, CMake, and the libraries it links.
packages=(g++ cmake make git pkg-config ca-certificates
  libpoco-dev libgit2-dev libyaml-cpp-dev libyaml-dev libpcre2-dev libdeflate-dev libjemalloc-dev
  libboost-dev libboost-filesystem-dev)

# The packages and the image (scripts/release.sh, tests/packaging/): cpack's dpkg-shlibdeps
# (dpkg-dev), the man page (help2man), lintian, a fresh Debian 12 (mmdebstrap, with Debian's
# keyring), and the OCI image (umoci).
packaging=(dpkg-dev help2man lintian mmdebstrap debian-archive-keyring umoci)

case "${1:-}" in
  "") ;;
  --package) packages+=("${packaging[@]}") ;;
  --test)
    # haproxy runs the replicas test; python3 the sync tests' git smart-HTTP server
    # (tests/sync/git_http_server.py) and the packaging tests' MCP session; npm (with Debian's
    # nodejs) installs the end-to-end tests' MCP clients and the MCP Inspector and, as the npm
    # package node@22, the Node.js 22 they run on (scripts/test.sh); an npm already on PATH
    # (another Node.js distribution) is used as it is.
    packages+=(libgtest-dev clang-format haproxy python3 curl)
    # The fuzz targets (scripts/fuzz.sh, run over their seeds by scripts/test.sh): clang and
    # libFuzzer's runtime.
    packages+=(clang libclang-rt-14-dev)
    # sdk.build_example_libcxx: the example plugin built by clang++ against LLVM's C++ library,
    # loaded by the server built by g++ against libstdc++ (the plugin boundary is C).
    packages+=(libc++-dev libc++abi-dev)
    command -v npm >/dev/null 2>&1 || packages+=(npm)
    # The packaging tests: the above. podman is not installed: where it is, the image test runs
    # the image with it; on these machines it cannot run containers (crun is refused
    # setrlimit), so the test runs the image's root filesystem in namespaces of its own.
    packages+=("${packaging[@]}")
    ;;
  --bench)
    # bench/orgsearch.sh runs Debian's codesearch (cindex / csearch, Russ Cox's trigram index)
    # over the same organisation as search, for comparison; python3 runs the benchmarks.
    packages+=(codesearch python3)
    ;;
  *) echo "usage: setup.sh [--package | --test | --bench]" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "setup: missing packages: ${missing[*]}; run this script as root (or install them with apt-get)" >&2
  exit 1
fi
echo "setup: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
