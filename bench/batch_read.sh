#!/usr/bin/env bash
# Reading several files at once (bench/batch_read.py): read_file with paths against single
# read_file calls, over stdio. Not a test; never run in CI.
set -euo pipefail
exec python3 "$(dirname "$0")/batch_read.py" "$@"
