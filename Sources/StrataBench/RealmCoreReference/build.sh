#!/usr/bin/env bash
# Builds the realm-core reference of `strata bench --realm-core` (realm_core_bench.cpp beside
# this script) against a realm-core source tree, release mode, storage library only (no sync,
# no app services, no geospatial; the system OpenSSL for encryption's hashes).
#
#   Sources/StrataBench/RealmCoreReference/build.sh REALM_CORE_SOURCE [BUILD_DIRECTORY]
#
# Needs cmake, a C++17 compiler, libssl-dev and zlib1g-dev (Debian: apt-get install cmake
# g++ libssl-dev zlib1g-dev). The realm-core tree needs no submodule in this configuration.
# Building realm-core's storage library takes about 30 minutes of one core.
# Prints the path of the built binary on its last line.
set -euo pipefail
source_dir=$(cd "${1:?usage: build.sh REALM_CORE_SOURCE [BUILD_DIRECTORY]}" && pwd)
build_dir=${2:-$source_dir/build-strata-bench}
here=$(cd "$(dirname "$0")" && pwd)
jobs=${JOBS:-$(nproc)}

cmake -S "$source_dir" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release \
  -DREALM_ENABLE_SYNC=OFF -DREALM_NO_TESTS=ON -DREALM_APP_SERVICES=OFF \
  -DREALM_USE_SYSTEM_OPENSSL=ON -DREALM_ENABLE_GEOSPATIAL=OFF -DREALM_BUILD_LIB_ONLY=ON >&2
cmake --build "$build_dir" --target Storage -j "$jobs" >&2

library=$(find "$build_dir" -name 'librealm*.a' | head -n 1)
[ -n "$library" ] || { echo "build.sh: librealm.a not found under $build_dir" >&2; exit 1; }
${CXX:-c++} -std=c++17 -O2 -DNDEBUG \
  -I "$source_dir/src" -I "$build_dir/src" \
  "$here/realm_core_bench.cpp" "$library" -lssl -lcrypto -lz -lpthread \
  -o "$build_dir/realm-core-bench"
echo "$build_dir/realm-core-bench"
