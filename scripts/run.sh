#!/usr/bin/env bash
# Installs what the server needs, builds it, and starts repo-reader over stdio, serving the git
# repository of the folder this is run from (or pass --config FILE and other options).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
case "${1:-}" in
  -h|--help)
    cat <<'HELP'
usage: scripts/run.sh [repo-reader's options]

Installs what repo-reader needs to build and run (Debian 12's packages: scripts/setup.sh, as
root), builds it into build/, and starts it with the options given. Without --config it serves
the git repository of the folder you run this from, over stdio: it waits for an MCP client on
its standard input (README.md: Connect a client). The first build takes a few minutes.

repo-reader's options:
HELP
    if [ -x "$root/build/repo-reader" ]; then
      "$root/build/repo-reader" --help
    else
      cat <<'HELP'
  --config FILE, -c FILE   serve the repositories FILE names (docs/configuration.md)
  --check [--online]       check the configuration, print what would be served, and exit
  --http [ADDR:]PORT       serve MCP over Streamable HTTP instead of stdio (docs/operating.md)
  --version, --help        (after the first build, this help shows repo-reader's own --help)
HELP
    fi
    exit 0 ;;
esac
here=$(pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh" -DRR_TESTS=OFF >&2
cd "$here"
exec "$root/build/repo-reader" "$@"
