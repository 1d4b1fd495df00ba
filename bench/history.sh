#!/usr/bin/env bash
# The history benchmark (bench/history.py): log, show_commit, diff, blame and find_commits beside
# git. Not a test; never run in CI.
set -euo pipefail
exec python3 "$(dirname "$0")/history.py" "$@"
