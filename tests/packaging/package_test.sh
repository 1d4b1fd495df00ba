#!/usr/bin/env bash
# The Debian package, tested as a user would meet it (ctest: Packaging.DebOnFreshDebian12).
#
#   package_test.sh SOURCE_DIR BUILD_DIR
#
# cpack makes repo-reader_<version>_amd64.deb and repo-reader-dev_<version>_all.deb from this
# build; lintian checks both; a fresh Debian 12 root filesystem (mmdebstrap, Debian's mirror;
# the base is kept in BUILD_DIR/packaging-test, so reruns skip it) gets the server with
# `apt-get install ./repo-reader_<version>_amd64.deb`, and inside it, as the user `repo-reader`
# the package made: --version, `man repo-reader`, --check on the example configuration, an MCP
# session over stdio (initialize, tools/list, read_file on a repository made there); over HTTP
# as the service starts it, with no token file; and over HTTP with a token from the environment
# (the example's token lines turned on), from a client outside on loopback.
# Prints the time of each step. Exit 77 (skipped) when not run as root.
set -euo pipefail
src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
work=$build/packaging-test
root=$work/root
t0=$(date +%s)
step() { echo "== [$(( $(date +%s) - t0 ))s] $*"; }
fail() { echo "FAIL: $*" >&2; exit 1; }

if [ "$(id -u)" -ne 0 ]; then
  echo "skipped: the package test needs root (chroot, mounts); scripts/test.sh runs as root"
  exit 77
fi
for tool in cpack lintian mmdebstrap curl python3; do
  command -v "$tool" >/dev/null || fail "$tool is not installed; scripts/setup.sh --test installs it"
done

version=$("$build/repo-reader" --version | awk '{print $2}')
[ -n "$version" ] || fail "the built repo-reader printed no version"

step "cpack: the packages of version $version"
rm -rf "$work/debs"
mkdir -p "$work/debs"
(cd "$build" && cpack -G DEB -B "$work/debs" >"$work/cpack.log" 2>&1) ||
  { cat "$work/cpack.log"; fail "cpack failed"; }
deb=$work/debs/repo-reader_${version}_amd64.deb
devdeb=$work/debs/repo-reader-dev_${version}_all.deb
[ -f "$deb" ] || fail "no $deb (cpack made: $(ls "$work/debs"))"
[ -f "$devdeb" ] || fail "no $devdeb (cpack made: $(ls "$work/debs"))"

step "the packages' contents and control fields"
contents=$(dpkg-deb -c "$deb")
for f in ./usr/bin/repo-reader ./usr/lib/repo-reader/plugins/repo-reader-secrets.so \
         ./usr/lib/repo-reader/plugins/repo-reader-github.so ./usr/share/man/man1/repo-reader.1.gz \
         ./usr/share/doc/repo-reader/README.md ./usr/share/doc/repo-reader/configuration.md \
         ./usr/share/doc/repo-reader/copyright ./usr/share/doc/repo-reader/examples/config.yaml \
         ./lib/systemd/system/repo-reader.service ./etc/repo-reader/config.yaml \
         ./usr/lib/repo-reader/healthcheck; do
  grep -q " $f\$" <<<"$contents" || fail "repo-reader's package lacks $f"
done
devcontents=$(dpkg-deb -c "$devdeb")
for f in ./usr/include/repo_reader/abi.h ./usr/include/repo_reader/testkit.h \
         ./usr/lib/cmake/repo_reader_sdk/repo_reader_sdk-config.cmake \
         ./usr/share/doc/repo-reader-dev/examples/acme-tokens/acme_tokens.cc; do
  grep -q " $f\$" <<<"$devcontents" || fail "repo-reader-dev's package lacks $f"
done
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
for lib in libpoco libgit2 libyaml-cpp libpcre2 libdeflate libjemalloc libc6 adduser; do
  grep -q "$lib" <<<"$depends" || fail "Depends does not name $lib: $depends"
done
[ "$(dpkg-deb -I "$deb" conffiles)" = "/etc/repo-reader/config.yaml" ] ||
  fail "/etc/repo-reader/config.yaml is not a conffile"

step "lintian"
lintian --fail-on error,warning "$deb" "$devdeb" 2>&1 |
  tee "$work/lintian.log" || fail "lintian found problems (above)"

step "a fresh Debian 12 root filesystem; apt-get install ./$(basename "$deb")"
"$src/packaging/rootfs.sh" install "$work" "$root" "$deb" >"$work/apt.log" 2>&1 ||
  { tail -40 "$work/apt.log"; fail "the package did not install with apt"; }
grep -E "^(Get|Fetched|Setting up repo-reader)" "$work/apt.log" | tail -3 || true
inroot() { "$src/packaging/rootfs.sh" run "$root" "$@"; }

step "inside: the user, the version, the man page"
inroot getent passwd repo-reader | grep -q "^repo-reader:.*:/var/lib/repo-reader:" ||
  fail "the package made no system user repo-reader"
[ "$(inroot stat -c %U:%a /var/lib/repo-reader)" = "repo-reader:750" ] ||
  fail "/var/lib/repo-reader is not the user's, 0750"
got=$(inroot repo-reader --version)
[ "$got" = "repo-reader $version" ] || fail "repo-reader --version said: $got"
inroot env MANPAGER=cat MANWIDTH=80 man repo-reader >"$work/man.txt" 2>&1 ||
  { cat "$work/man.txt"; fail "man repo-reader failed"; }
grep -q -- "--config" "$work/man.txt" && grep -q "/etc/repo-reader/config.yaml" "$work/man.txt" ||
  fail "the man page lacks the options or the files: $(head -20 "$work/man.txt")"
inroot repo-reader --help | grep -q "man repo-reader" || fail "--help does not name the man page"

step "inside: a repository where the example configuration says, and --check"
inroot /bin/sh -ec '
  mkdir -p /srv/git/shop && cd /srv/git/shop
  git init -q -b main
  printf "# Shop\nThe web shop, packaged.\n" > README.md
  mkdir -p secrets && echo "never shown" > secrets/key.txt
  git add -A
  git -c user.name=Dev -c user.email=dev@example.com commit -q -m "first commit"'
inroot runuser -u repo-reader -- repo-reader --config /etc/repo-reader/config.yaml --check \
  >"$work/check.txt" 2>&1 || { cat "$work/check.txt"; fail "--check on the example configuration failed"; }
grep -q "^OK" "$work/check.txt" || fail "--check did not say OK: $(cat "$work/check.txt")"
grep -q "shop" "$work/check.txt" || fail "--check does not list shop"

step "inside: an MCP session over stdio, as the user repo-reader"
python3 "$src/tests/packaging/mcp_session.py" stdio -- \
  "$src/packaging/rootfs.sh" run "$root" runuser -u repo-reader -- \
  repo-reader --config /etc/repo-reader/config.yaml || fail "the stdio session failed"

# Starts the installed server over HTTP on a free loopback port as the user repo-reader, with
# the configuration $1 (and REPO_READER_TOKEN when set); sets $server (unshare) and $url.
start_http() {
  "$src/packaging/rootfs.sh" run "$root" runuser -u repo-reader -w REPO_READER_TOKEN -- \
    repo-reader --config "$1" --http 127.0.0.1:0 2>"$work/http.log" &
  server=$!
  url=""
  for _ in $(seq 1 100); do
    url=$(grep -o "http://127.0.0.1:[0-9]*/mcp" "$work/http.log" | head -1 || true)
    [ -n "$url" ] && return 0
    kill -0 $server 2>/dev/null || { cat "$work/http.log"; fail "the HTTP server stopped"; }
    sleep 0.1
  done
  cat "$work/http.log"
  fail "the HTTP server never said its address"
}
# SIGKILL to unshare: --kill-child ends the server's PID namespace with it, at once.
stop_http() { kill -KILL $server; wait $server 2>/dev/null || true; trap - EXIT; }

step "inside: over HTTP as the service starts it, with no /etc/repo-reader/env (no token)"
[ ! -e "$root/etc/repo-reader/env" ] || fail "the package made /etc/repo-reader/env"
start_http /etc/repo-reader/config.yaml
trap 'kill -KILL $server 2>/dev/null || true' EXIT
[ "$(curl -s "${url%/mcp}/healthz")" = "ok" ] || fail "/healthz on loopback without a token"
stop_http

step "inside: over HTTP with the token from the environment; a client outside, on loopback"
# The example's two token lines turned on, as its comment says to.
inroot /bin/sh -ec 'sed "s/^#http:/http:/; s/^#  token_env:/  token_env:/" \
  /etc/repo-reader/config.yaml >/etc/repo-reader/token.yaml'
grep -q "^  token_env: REPO_READER_TOKEN" "$root/etc/repo-reader/token.yaml" ||
  fail "the example configuration has no line '#  token_env: REPO_READER_TOKEN' to turn on"
token=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
REPO_READER_TOKEN=$token start_http /etc/repo-reader/token.yaml
trap 'kill -KILL $server 2>/dev/null || true' EXIT
health=${url%/mcp}/healthz
[ "$(curl -s -o /dev/null -w '%{http_code}' "$health")" = "401" ] ||
  fail "/healthz without the token was not refused"
[ "$(curl -s -H "Authorization: Bearer $token" "$health")" = "ok" ] || fail "/healthz with the token"
REPO_READER_TOKEN=$token python3 "$src/tests/packaging/mcp_session.py" http "$url" ||
  fail "the HTTP session failed"
stop_http
grep -q "tools/call read_file repo=shop" "$work/http.log" || fail "the access log lacks the call"

step "done: the package installs and serves on a fresh Debian 12"
echo "1 passed, 0 failed"
