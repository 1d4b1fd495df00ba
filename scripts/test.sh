#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: the format check, the suite in a
# normal build, and the suite again in a build with AddressSanitizer and
# UndefinedBehaviorSanitizer, then every fuzz target once over its seeds (fuzz/corpus/, built
# with clang into build-fuzz/: scripts/fuzz.sh). `--quick` skips the sanitizer build and the
# fuzz targets.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
case "${1:-}" in
  "") ;;
  --quick) quick=1 ;;
  -h|--help)
    cat <<'HELP'
usage: scripts/test.sh [--quick]

Installs what the tests need (Debian 12's packages, scripts/setup.sh --test, as root; the MCP
clients and the Inspector with npm), builds repo-reader into build/, and runs every test: the
format check, the suite (ctest; the packaging tests among them: the .deb on a fresh Debian 12
and the container image), then the suite again under AddressSanitizer and
UndefinedBehaviorSanitizer in build-asan/, then every fuzz target once over its seeds
(scripts/fuzz.sh --seeds-only, built with clang into build-fuzz/).
  --quick   skip the sanitizer build and the fuzz targets
One test: cd build && ctest -R NAME, or ./tests/rr_tests --gtest_filter='Suite.*'.
HELP
    exit 0 ;;
  *) echo "test.sh: unknown option ${1}; see scripts/test.sh --help" >&2; exit 2 ;;
esac

./scripts/setup.sh --test

# The end-to-end tests with the official MCP TypeScript SDK clients (v1 and v2, and v2's skills
# client in tests/e2e/skills) and the conformance suite run on Node.js 22, which npm installs
# beside them (the package node@22), all pinned in the lock files.
if command -v npm >/dev/null 2>&1; then
  if [ ! -x tests/e2e/sdk/node_modules/.bin/node ] ||
     [ tests/e2e/sdk/package-lock.json -nt tests/e2e/sdk/node_modules ]; then
    npm ci --prefix tests/e2e/sdk --no-audit --no-fund --loglevel=error
  fi
  # The MCP Inspector the README's examples use (tests/e2e/readme_inspector_test.cc).
  if [ ! -d tests/e2e/inspector/node_modules ] ||
     [ tests/e2e/inspector/package-lock.json -nt tests/e2e/inspector/node_modules ]; then
    npm ci --prefix tests/e2e/inspector --no-audit --no-fund --loglevel=error
  fi
  if [ ! -d tests/e2e/skills/node_modules ] ||
     [ tests/e2e/skills/package-lock.json -nt tests/e2e/skills/node_modules ]; then
    npm ci --prefix tests/e2e/skills --no-audit --no-fund --loglevel=error
  fi
fi

echo "== format check"
files=$(git ls-files '*.cc' '*.h' 2>/dev/null || find core tests sdk plugins -name '*.cc' -o -name '*.h')
clang-format --dry-run -Werror $files
echo "format: ok"

echo "== build and test"
BUILD_DIR=build ./scripts/build.sh -DRR_TESTS=ON -DRR_SANITIZE=OFF
(cd build && ctest --output-on-failure -j 2 --timeout 600)

if [ $quick -eq 0 ]; then
  echo "== build and test with AddressSanitizer and UndefinedBehaviorSanitizer"
  BUILD_DIR=build-asan BUILD_TYPE=Debug ./scripts/build.sh -DRR_TESTS=ON -DRR_SANITIZE=ON
  (cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
     UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
     ctest --output-on-failure -j 2 --timeout 900)

  # Every parser of untrusted input over its seeds: a crash, sanitizer report or hang (10 s) on a
  # seed fails here at once. Ends with "fuzz: N passed, N failed".
  echo "== fuzz targets over their seeds"
  ./scripts/fuzz.sh --seeds-only
fi
echo "== all tests passed"
