#!/usr/bin/env bash
# The search benchmark (bench/search.py): grep, search and find_files beside git grep and
# git ls-tree. Not a test; never run in CI.
set -euo pipefail
exec python3 "$(dirname "$0")/search.py" "$@"
