#!/usr/bin/env bash
# Builds the example plugin (sdk/examples/acme-tokens) as a plugin author outside this tree
# would: install the SDK from the server's build, configure the example against that install
# only, build it, run its own test suite, and install it into a plugin folder of its own.
# The server-side end-to-end test (example_plugin_e2e_test.cc) then loads what this leaves in
# WORK_DIR/build and WORK_DIR/server.
#
#
# With a sixth argument `libcxx`, the plugin is built by clang++ against LLVM's C++ standard
# library (-stdlib=libc++; Debian 12: clang, libc++-dev, libc++abi-dev), while the server is built
# by g++ against libstdc++: the plugin boundary is C (plugin_abi.h), so it must load and work.
# Its tests are not built then (GoogleTest here is built for libstdc++), and the script checks
# that the plugin really depends on libc++ and not on libstdc++.
#
#   build_example.sh CMAKE CTEST SERVER_BUILD_DIR EXAMPLE_SOURCE_DIR WORK_DIR [libcxx]
set -euo pipefail

if [ $# -ne 5 ] && { [ $# -ne 6 ] || [ "$6" != libcxx ]; }; then
  echo "usage: $0 CMAKE CTEST SERVER_BUILD_DIR EXAMPLE_SOURCE_DIR WORK_DIR [libcxx]" >&2
  exit 2
fi
cmake=$1
ctest=$2
server_build=$3
example=$4
work=$5
mode=${6:-}
toolchain=()
if [ "$mode" = libcxx ]; then
  toolchain=(-DCMAKE_CXX_COMPILER=clang++ "-DCMAKE_CXX_FLAGS=-stdlib=libc++"
             "-DCMAKE_MODULE_LINKER_FLAGS=-stdlib=libc++" -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON)
fi

# From scratch every time: nothing left by an earlier run can make this pass.
rm -rf "$work"
mkdir -p "$work"

echo "== install the SDK (component sdk) into $work/sdk"
"$cmake" --install "$server_build" --component sdk --prefix "$work/sdk"

echo "== configure the example against the installed SDK only"
# A clean environment for CMake's package search: only the installed SDK and the system.
env -u CMAKE_PREFIX_PATH -u CPATH -u CPLUS_INCLUDE_PATH -u CXXFLAGS -u LDFLAGS \
  "$cmake" -S "$example" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/sdk" \
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF ${toolchain[@]+"${toolchain[@]}"}

found=$(sed -n 's/^repo_reader_sdk_DIR:PATH=//p' "$work/build/CMakeCache.txt")
if [ "$found" != "$work/sdk/lib/cmake/repo_reader_sdk" ]; then
  echo "the example found the SDK at '$found', not in $work/sdk" >&2
  exit 1
fi

echo "== build"
"$cmake" --build "$work/build" -j 2

if [ "$mode" = libcxx ]; then
  echo "== the plugin is built against libc++, not libstdc++"
  needed=$(readelf -d "$work/build/acme-tokens.so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
  echo "$needed"
  if ! grep -qx 'libc++.so.1' <<<"$needed" || grep -q '^libstdc++' <<<"$needed"; then
    echo "acme-tokens.so does not depend on libc++ alone: $needed" >&2
    exit 1
  fi
else
  echo "== the example's own tests"
  (cd "$work/build" && "$ctest" --output-on-failure --no-tests=error)
fi

echo "== install the plugin as an operator would, into $work/server"
"$cmake" --install "$work/build" --prefix "$work/server"

# The server loads a plugin only from a file and folder no one but their owner can write (see
# docs/plugins.md); a umask of 002 would leave both writable by the group.
chmod go-w "$work/build" "$work/build/acme-tokens.so" \
  "$work/server/lib/repo-reader/plugins" "$work/server/lib/repo-reader/plugins/acme-tokens.so"

echo "== ok: $work/build/acme-tokens.so, $work/server/lib/repo-reader/plugins/acme-tokens.so"
