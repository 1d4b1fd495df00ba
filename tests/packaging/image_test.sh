#!/usr/bin/env bash
# The container image, tested as a user would run it (ctest: Packaging.ImageServesOverHttp).
#
#   image_test.sh SOURCE_DIR BUILD_DIR
#
# Builds the OCI archive with packaging/image/build-image.sh from the package the package test
# made (BUILD_DIR/packaging-test/debs), then runs it with the token from the environment, a
# repository mounted read-only at /srv/git/shop (where the example configuration looks) and a
# volume for /var/lib/repo-reader, and has the official MCP SDK's clients (v1 and v2) call it
# over HTTP, after the image's health check passes.
#
# With podman when it can run containers here (`podman run --read-only`). Where it cannot (no
# cgroups or overlay storage in this sandbox, for one), the image itself is still what runs: the
# OCI archive is unpacked with umoci and its root filesystem run in its own mount and PID
# namespaces (unshare + chroot) as the image's user, from the image's config, with the root
# mounted read-only and only the volume and a /tmp writable. The test says which it used.
set -euo pipefail
src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
work=$build/packaging-test
t0=$(date +%s)
step() { echo "== [$(( $(date +%s) - t0 ))s] $*"; }
fail() { echo "FAIL: $*" >&2; exit 1; }

if [ "$(id -u)" -ne 0 ]; then
  echo "skipped: the image test needs root (chroot, mounts); scripts/test.sh runs as root"
  exit 77
fi
version=$("$build/repo-reader" --version | awk '{print $2}')
deb=$work/debs/repo-reader_${version}_amd64.deb
[ -f "$deb" ] || fail "no $deb: the package test (Packaging.DebOnFreshDebian12) makes it first"
node=$src/tests/e2e/sdk/node_modules/node/bin/node
[ -x "$node" ] || node=$(command -v node || true)
[ -d "$src/tests/e2e/sdk/node_modules/@modelcontextprotocol/sdk" ] ||
  fail "the MCP SDK is not installed; run npm ci --prefix tests/e2e/sdk (scripts/test.sh does)"

step "build the image"
image=$work/repo-reader-$version.oci.tar
"$src/packaging/image/build-image.sh" "$deb" "$image" "$work" >"$work/image.log" 2>&1 ||
  { tail -40 "$work/image.log"; fail "build-image.sh failed"; }
tail -1 "$work/image.log"

# The repository the example configuration serves, on the host, mounted read-only.
repo=$work/image-repo/shop
rm -rf "$work/image-repo"
mkdir -p "$repo"
git -C "$repo" init -q -b main
printf '# Shop\nThe web shop, in a container.\n' >"$repo/README.md"
git -C "$repo" add -A
git -C "$repo" -c user.name=Dev -c user.email=dev@example.com commit -q -m first
chmod -R a+rX "$work/image-repo"
volume=$work/image-volume
rm -rf "$volume"
mkdir -p "$volume"
token=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
url=http://127.0.0.1:$port/mcp
cleanup=()
trap 'for c in "${cleanup[@]}"; do eval "$c" || true; done' EXIT

how=""
if command -v podman >/dev/null && podman info >/dev/null 2>&1; then
  step "podman: load and run the image"
  if loaded=$(podman load -i "$image" 2>&1); then
    ref=$(sed -n 's/^Loaded image: //p' <<<"$loaded" | tail -1)
    uid=$(tar -xOf "$image" ./index.json >/dev/null; python3 - "$image" <<'EOF'
import json, sys, tarfile
t = tarfile.open(sys.argv[1])
idx = json.load(t.extractfile("./index.json"))
m = json.load(t.extractfile("./blobs/" + idx["manifests"][0]["digest"].replace(":", "/")))
c = json.load(t.extractfile("./blobs/" + m["config"]["digest"].replace(":", "/")))
print(c["config"]["User"])
EOF
)
    chown -R "$uid" "$volume"
    if podman run -d --name rr-image-test --read-only -p "127.0.0.1:$port:8080" \
         -e REPO_READER_TOKEN="$token" -v "$repo:/srv/git/shop:ro" \
         -v "$volume:/var/lib/repo-reader" \
         --health-cmd "/usr/lib/repo-reader/healthcheck 8080" --health-interval 2s \
         "$ref" >"$work/podman.log" 2>&1; then
      how=podman
      cleanup+=("podman rm -f rr-image-test >/dev/null 2>&1" "podman rmi -f '$ref' >/dev/null 2>&1")
    else
      echo "podman could not run the container here: $(tail -3 "$work/podman.log")"
      podman rm -f rr-image-test >/dev/null 2>&1 || true
      podman rmi -f "$ref" >/dev/null 2>&1 || true
    fi
  else
    echo "podman could not load the image here: $loaded"
  fi
else
  echo "podman cannot run containers here ($(command -v podman >/dev/null && echo 'podman info fails' || echo 'not installed'))"
fi

if [ -z "$how" ]; then
  step "no podman: the image's root filesystem (umoci unpack), read-only, as the image's user"
  how="umoci unpack + unshare/chroot"
  layout=$work/image-layout
  bundle=$work/image-bundle
  rm -rf "$layout" "$bundle"
  mkdir -p "$layout"
  tar -C "$layout" -xf "$image"
  tag=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["manifests"][0]["annotations"]["org.opencontainers.image.ref.name"])' "$layout/index.json")
  umoci unpack --image "$layout:$tag" "$bundle" >/dev/null
  # The process the image's config says: its user, its arguments, its environment.
  process=$(python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["process"]
print("user\t%d:%d" % (p["user"]["uid"], p["user"]["gid"]))
for a in p["args"]: print("arg\t" + a)
for e in p["env"]: print("env\t" + e)' "$bundle/config.json")
  user=$(sed -n 's/^user\t//p' <<<"$process")
  mapfile -t argv < <(sed -n 's/^arg\t//p' <<<"$process")
  mapfile -t envv < <(sed -n 's/^env\t//p' <<<"$process")
  [ "${user%%:*}" != 0 ] || fail "the image runs as root"
  # The image listens on 0.0.0.0:8080; here the host's network is shared: loopback, a free port.
  [ "${argv[-1]}" = 0.0.0.0:8080 ] || fail "the image's command does not end with 0.0.0.0:8080"
  argv[-1]=127.0.0.1:$port
  chown -R "$user" "$volume"
  rootfs=$bundle/rootfs
  unshare --mount --pid --fork --kill-child --propagation private /bin/bash -c '
    set -e
    rootfs=$1; repo=$2; volume=$3; user=$4; shift 4
    mount --bind "$rootfs" "$rootfs"
    mount --rbind /dev "$rootfs/dev"
    mount -t proc proc "$rootfs/proc"
    mount -t tmpfs -o mode=1777 tmpfs "$rootfs/tmp"
    mount --bind "$volume" "$rootfs/var/lib/repo-reader"
    mkdir -p "$rootfs/srv/git/shop"
    mount --bind "$repo" "$rootfs/srv/git/shop"
    mount -o remount,bind,ro "$rootfs/srv/git/shop"
    mount -o remount,bind,ro "$rootfs"
    # The root is read-only for the server: even root cannot write there now.
    if (: >"$rootfs/etc/rr-probe") 2>/dev/null; then echo "the root is writable" >&2; exit 1; fi
    # Not exec (nor last, which bash would exec): bash stays the namespace'"'"'s first process.
    # chroot --userspec changes the server'"'"'s user, which clears the signal --kill-child set
    # on it; the namespace ends when its first process does, and takes the server with it.
    chroot --userspec="$user" "$rootfs" "$@" &
    wait $!
  ' image-run "$rootfs" "$repo" "$volume" "$user" \
    env -i -C /var/lib/repo-reader "${envv[@]}" "REPO_READER_TOKEN=$token" "${argv[@]}" \
    >"$work/image-run.log" 2>&1 &
  server=$!
  cleanup+=("kill -KILL $server")  # unshare --kill-child: the namespace ends with it
fi

step "wait for the health check ($how)"
ok=""
for _ in $(seq 1 150); do
  if [ "$how" = podman ]; then
    podman healthcheck run rr-image-test >/dev/null 2>&1 && { ok=1; break; }
  else
    REPO_READER_TOKEN=$token "$bundle/rootfs/usr/lib/repo-reader/healthcheck" "$port" 2>/dev/null && { ok=1; break; }
    kill -0 "$server" 2>/dev/null || { cat "$work/image-run.log"; fail "the server stopped"; }
  fi
  sleep 0.2
done
[ -n "$ok" ] || { cat "$work/image-run.log" "$work/podman.log" 2>/dev/null; fail "never healthy"; }
[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/healthz")" = 401 ] ||
  fail "/healthz without the token was not refused"

step "the official MCP SDK's clients over HTTP, with the token"
for gen in v1 v2; do
  RR_TEST_TOKEN=$token "$node" "$src/tests/e2e/sdk/many_calls.mjs" "$gen" "$url" shop 10 ||
    fail "the SDK $gen client failed"
done

step "the server's own files went to the volume (the root is read-only)"
find "$volume" -mindepth 1 | grep -q . || fail "nothing in the volume /var/lib/repo-reader"
find "$volume" -mindepth 1 -maxdepth 2 | sed 's/^/  /'
if [ "$how" != podman ]; then
  step "stopping the namespace stops the server (nothing left listening on $port)"
  kill -KILL "$server"
  wait "$server" 2>/dev/null || true
  gone=""
  for _ in $(seq 1 50); do
    curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$port/healthz" || { gone=1; break; }
    sleep 0.1
  done
  [ -n "$gone" ] || fail "the server still answers on $port after its namespace was killed"
fi
step "done ($how)"
echo "1 passed, 0 failed"
