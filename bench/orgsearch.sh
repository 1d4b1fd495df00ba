#!/usr/bin/env bash
# The organisation search benchmark (bench/orgsearch.py): search with and without the text index
# over many repositories made from public snapshots, beside codesearch. Not a test; never in CI.
set -euo pipefail
exec python3 "$(dirname "$0")/orgsearch.py" "$@"
