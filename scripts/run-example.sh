#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One command from a fresh clone: install what is missing, build, generate the default example model
# (a MobileNet-v1 0.25/96, deterministic) and compile it for an Ethos-U55-128.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install-dependencies.sh"
NPU_BUILD_TYPE=Release "$root/scripts/build.sh" "$root/build/release" -DNPU_BUILD_TESTS=OFF
bin="$root/build/release/bin"
mkdir -p "$root/out"
"$bin/npu-model-gen" mobilenet-v1 --alpha 0.25 --resolution 96 -o "$root/out/example_mobilenet_v1.tflite"
"$bin/npu-pipeline" run "$root/configs/reference/C1-cascade.yaml" "$root/out/example_mobilenet_v1.tflite" \
  -o "$root/out/example"
echo
echo "reports written to $root/out/example"
