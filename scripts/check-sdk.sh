#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Proves the SDK works for a vendor: install npu-pipeline to a temporary prefix, build the example
# accelerator plugin (examples/vendor_accelerator) from that prefix only, and use it through the
# installed npu-pipeline: listed by `plugins`, passing `conformance`, and compiling a real model with
# both schedulers through `compare`.
# usage: scripts/check-sdk.sh [build-dir]   (a configured and built tree; default build/test)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${1:-$root/build/test}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"

cmake --install "$build_dir" --prefix "$prefix" >/dev/null
cmake -S "$root/examples/vendor_accelerator" -B "$work/example-build" -G Ninja \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/example-build" >/dev/null
cmake --install "$work/example-build" >/dev/null

npu="$prefix/bin/npu-pipeline"
"$npu" plugins | tee "$work/plugins.txt"
grep -q "acme_npu" "$work/plugins.txt" || { echo "check-sdk: the example plugin is not listed" >&2; exit 1; }
"$npu" conformance acme_npu

model="${NPU_PIPELINE_MODELS:-}/mlperf_tiny_kws_dscnn_int8.tflite"
if [ ! -f "$model" ]; then
  model="$work/example.tflite"
  "$build_dir/bin/npu-model-gen" mobilenet-v1 --alpha 0.25 --resolution 96 -o "$model"
fi
pipelines="$prefix/share/npu-pipeline/examples/acme"
"$npu" compare "$pipelines/acme-dp.yaml" "$pipelines/acme-cascade.yaml" "$model" -o "$work/compare" \
  > "$work/compare.txt"
head -20 "$work/compare.txt"
test -s "$work/compare/compare.html"
echo "check-sdk: passed"
