#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Configures and builds npu-pipeline: scripts/build.sh <build-dir> [extra cmake arguments...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${1:-$root/build/release}"
shift || true
jobs="${NPU_BUILD_JOBS:-$(nproc)}"
cmake -S "$root" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE="${NPU_BUILD_TYPE:-RelWithDebInfo}" "$@" >/dev/null
cmake --build "$build_dir" --parallel "$jobs"
