#!/usr/bin/env bash
# The scale benchmark (bench/scale.py): 20,000 repositories configured; start, memory, list_repos
# pages, read_file. Not a test; never run in CI.
set -euo pipefail
exec python3 "$(dirname "$0")/scale.py" "$@"
