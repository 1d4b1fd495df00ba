#!/usr/bin/env bash
# The secret filter's bench: builds secrets-bench and the built-in detectors into build-bench/
# (Release, -DRR_BENCH=ON -DRR_TESTS=OFF), writes the labelled corpus, then measures quality
# (recall, false positives, every miss) and speed (MB/s beside `git cat-file --batch`, the cost
# of a read_file window). Prints Markdown. Not a test; never run in CI.
#   bench/secrets/run.sh                        this repository for the speed runs
#   bench/secrets/run.sh --repo PATH            another repository (bare or not)
#   bench/secrets/run.sh --quality-only --list 50
#   bench/secrets/run.sh --help                 every option of secrets-bench
# The corpus is regenerated with SEED (default 1) into bench/secrets/out/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build="$root/build-bench"
corpus="$here/out/corpus.jsonl"

configured() {
  local cache="$build/CMakeCache.txt"
  [[ -f $cache ]] && grep -q '^CMAKE_BUILD_TYPE:STRING=Release$' "$cache" &&
    grep -q '^RR_BENCH:BOOL=ON$' "$cache"
}
if ! configured; then
  echo "configuring a Release build in build-bench/" >&2
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DRR_BENCH=ON -DRR_TESTS=OFF >/dev/null
fi
echo "building secrets-bench and the built-in detectors" >&2
cmake --build "$build" -j2 --target secrets-bench >/dev/null
# CORPUS_ARGS: more make_corpus.py options, e.g. "--per-category 100" for a larger corpus.
# shellcheck disable=SC2086
python3 "$here/make_corpus.py" --seed "${SEED:-1}" ${CORPUS_ARGS:-} --out "$corpus" >&2
exec "$build/secrets-bench" --corpus "$corpus" "$@"
