#!/usr/bin/env bash
# The repo-reader benchmark: builds the Release binary into build-bench/ if needed, builds (or
# reuses) the generated repository under bench/out/, and measures. Not a test; never run in CI.
#   bench/run.sh                 full size (80,000 commits; the first run builds it in minutes)
#   bench/run.sh --size small    a quick run
#   bench/run.sh --help          every option
set -euo pipefail
exec python3 "$(dirname "$0")/bench.py" "$@"
