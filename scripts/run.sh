#!/usr/bin/env bash
# Installs what is missing, builds, and starts repo-reader over stdio, serving the git
# repository of the folder this is run from (or pass --config FILE and other options).
set -euo pipefail
here=$(pwd)
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/build.sh" -DRR_TESTS=OFF >&2
cd "$here"
exec "$root/build/repo-reader" "$@"
