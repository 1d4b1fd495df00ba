#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, RR_FUZZ=ON, clang with AddressSanitizer and
# UndefinedBehaviorSanitizer) into build-fuzz/ and runs them. docs/safety.md lists the targets.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  cat <<'USAGE'
Usage: scripts/fuzz.sh [--seconds N | --seeds-only] [--jobs N] [target...]

Builds the fuzz targets into build-fuzz/ (or $BUILD_DIR) when needed, then runs each target
named (all of them when none is), one after another:
  --seconds N    fuzz each target for N seconds (default 60), starting from its seeds in
                 fuzz/corpus/<target>/; what it learns is kept in build-fuzz/corpus/<target>/
                 and used by the next run
  --seeds-only   run each target once over its seeds and nothing else (what CI does)
  --jobs N       build with N jobs (default 2)
  --list         print the targets' names and exit
  --help         this text

A finding (a crash, a sanitizer report, a hang past 10 s, more than 2 GB of memory) stops that
target; its input is written to build-fuzz/findings/<target>-<kind>-<hash>, and the script goes
on with the next target. Reproduce one with:  build-fuzz/fuzz/<target>_fuzz <input>
Ends with a line "fuzz: N passed, N failed" and exits 1 when any target failed.
Needs clang and libclang-rt-14-dev (scripts/setup.sh installs them). Two runs at once need
two build folders (BUILD_DIR=...): both would rebuild the same one.
USAGE
}

seconds=60
seeds_only=0
jobs=2
list=0
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds=${2:?--seconds needs a number}; shift 2 ;;
    --seconds=*) seconds=${1#*=}; shift ;;
    --seeds-only) seeds_only=1; shift ;;
    --jobs) jobs=${2:?--jobs needs a number}; shift 2 ;;
    --list) list=1; shift ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "fuzz: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
case "$seconds" in ''|*[!0-9]*) echo "fuzz: --seconds takes a whole number of seconds" >&2; exit 2 ;; esac

build_dir=${BUILD_DIR:-build-fuzz}
# -O1 with assertions kept (NDEBUG unset): assertions are checks too, and the build is a
# tenth cheaper than -O3 (it counts in CI's time).
CC=${FUZZ_CC:-clang} CXX=${FUZZ_CXX:-clang++} \
  cmake -S . -B "$build_dir" -DRR_FUZZ=ON -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_FLAGS_RELEASE=-O1 >/dev/null
cmake --build "$build_dir" -j "$jobs" >/dev/null

mapfile -t all < "$build_dir/fuzz-targets.txt"
if [ $list -eq 1 ]; then printf '%s\n' "${all[@]}"; exit 0; fi
[ ${#targets[@]} -eq 0 ] && targets=("${all[@]}")
for t in "${targets[@]}"; do
  if [ ! -x "$build_dir/fuzz/${t}_fuzz" ]; then
    echo "fuzz: no target \`$t\`; the targets are: ${all[*]}" >&2
    exit 2
  fi
done

mkdir -p "$build_dir/findings"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
passed=0
failed=0
failures=()
for t in "${targets[@]}"; do
  seeds="fuzz/corpus/$t"
  log="$build_dir/findings/$t.log"
  common=(-timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048 -max_len=65536
          "-artifact_prefix=$build_dir/findings/$t-")
  # A target that reads files writes them under its own TMPDIR, emptied after it (two runs of
  # different targets at once never share one).
  export TMPDIR="$PWD/$build_dir/tmp/$t"
  mkdir -p "$TMPDIR"
  start=$(date +%s)
  if [ $seeds_only -eq 1 ]; then
    # Each seed once (files given one by one: no mutation, no corpus written).
    mapfile -t files < <(find "$seeds" -type f | sort)
    set +e
    "$build_dir/fuzz/${t}_fuzz" "${common[@]}" "${files[@]}" >"$log" 2>&1
    rc=$?
    set -e
    what="${#files[@]} seeds"
  else
    work="$build_dir/corpus/$t"
    mkdir -p "$work"
    set +e
    "$build_dir/fuzz/${t}_fuzz" "${common[@]}" -max_total_time="$seconds" -print_final_stats=1 \
      "$work" "$seeds" >"$log" 2>&1
    rc=$?
    set -e
    runs=$(grep -oE '^stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || true)
    what="${seconds} s, ${runs:-?} runs"
  fi
  find "$TMPDIR" -mindepth 1 -delete 2>/dev/null || true
  took=$(( $(date +%s) - start ))
  if [ $rc -eq 0 ]; then
    passed=$((passed + 1))
    echo "fuzz: $t: ok ($what, ${took} s)"
  else
    failed=$((failed + 1))
    failures+=("$t")
    echo "fuzz: $t: FAILED ($what, ${took} s); log: $log"
    grep -E 'ERROR|SUMMARY|Test unit written|ALARM|out-of-memory' "$log" | head -8 | sed 's/^/    /'
  fi
done
echo "fuzz: $passed passed, $failed failed${failures:+ (${failures[*]})}"
[ $failed -eq 0 ]
