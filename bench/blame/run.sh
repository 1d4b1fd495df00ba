#!/usr/bin/env bash
# The blame engine's bench: builds blame-bench into build-bench/ (Release, -DRR_BENCH=ON
# -DRR_TESTS=OFF) and times the engine against `git blame --porcelain` on one file, checking
# every line against git's. Not a test; never run in CI.
#   bench/blame/run.sh --repo PATH --path FILE [--ref REF] [--runs N]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build="$root/build-bench"

configured() {
  local cache="$build/CMakeCache.txt"
  [[ -f $cache ]] && grep -q '^CMAKE_BUILD_TYPE:STRING=Release$' "$cache" &&
    grep -q '^RR_BENCH:BOOL=ON$' "$cache"
}
if ! configured; then
  echo "configuring a Release build in build-bench/" >&2
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DRR_BENCH=ON -DRR_TESTS=OFF >/dev/null
fi
echo "building blame-bench" >&2
cmake --build "$build" -j2 --target blame-bench >/dev/null
exec "$build/bench/blame-bench" "$@"
