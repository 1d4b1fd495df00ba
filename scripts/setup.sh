#!/usr/bin/env bash
# Installs what repo-reader needs to build and test, from Debian 12's packages.
# Idempotent: when everything is already there it asks apt nothing and returns at once.
set -euo pipefail

# haproxy runs the replicas test. npm (with Debian's nodejs) installs the end-to-end tests' MCP
# clients and, as the npm package node@22, the Node.js 22 they run on (scripts/test.sh); an npm
# already on PATH (another Node.js distribution) is used as it is.
packages=(g++ cmake make git pkg-config ca-certificates
  libpoco-dev libgit2-dev libyaml-cpp-dev libyaml-dev libpcre2-dev libdeflate-dev
  libboost-dev libboost-filesystem-dev libgtest-dev clang-format haproxy
  python3  # python3: the sync tests' git smart-HTTP server (tests/sync/git_http_server.py)
  clang libclang-rt-14-dev)  # the fuzz targets (scripts/fuzz.sh): clang and libFuzzer's runtime
command -v npm >/dev/null 2>&1 || packages+=(npm)

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
