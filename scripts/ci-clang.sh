#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# CI stage "clang": the project must build with Debian 12's clang 14 as well as GCC 12. One clang
# configuration serves everything this stage checks:
#   1. build/fuzz: every target but the tests, with clang, -Werror and libFuzzer/ASan/UBSan
#      instrumentation; a smoke run of the built npu-pipeline on a generated model;
#   2. the two fuzz targets for a fixed number of inputs (scripts/ci-fuzz.sh, on the same build);
# ThreadSanitizer (scripts/ci-tsan.sh, its own build) is run by hand, not here: see docs/reliability.md.
# usage: scripts/ci-clang.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# This stage's own packages: clang 14 with its sanitizer and libFuzzer runtimes, ccache.
missing=()
for package in clang libclang-rt-14-dev ccache; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=()
  [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null
fi
build="$root/build/fuzz"
jobs="${NPU_BUILD_JOBS:-$(nproc)}"
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}" # relative source paths: see scripts/ci-fuzz.sh

echo "== clang build"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DNPU_BUILD_FUZZERS=ON -DNPU_SANITIZE=ON -DNPU_BUILD_TESTS=OFF -DNPU_BUILD_PYTHON=OFF "${launcher[@]}" >/dev/null
cmake --build "$build" --parallel "$jobs"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}"
"$build/bin/npu-model-gen" mobilenet-v1 --alpha 0.25 --resolution 64 --blocks 4 -o "$work/model.tflite" >/dev/null
"$build/bin/npu-pipeline" run "$root/configs/reference/C1-cascade.yaml" "$work/model.tflite" -o "$work/out" | tail -3
test -s "$work/out/model_vela.tflite"
"$build/bin/npu-pipeline" plugins >/dev/null

echo "== fuzz"
"$root/scripts/ci-fuzz.sh" "$build"
echo "ci-clang: passed"
