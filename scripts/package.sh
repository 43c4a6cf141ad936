#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the Debian packages from a configured and built tree: npu-pipeline (runtime) and
# npu-pipeline-dev (SDK), into <build-dir>/packages.
# usage: scripts/package.sh [build-dir]   (default build/test)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="$(cd "${1:-$root/build/test}" && pwd)"
mkdir -p "$build_dir/packages"
(cd "$build_dir/packages" && cpack --config "$build_dir/CPackConfig.cmake" -G DEB >/dev/null)
ls "$build_dir/packages"/*.deb
