#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# CI stage: build the .deb packages, install them on this (fresh) machine with apt, and use what they
# installed: the command compiles a model, `import npu_pipeline` works from the system Python, the
# runtime package pulls no compiler, libraries sit in the multiarch directory, copyright files exist.
# usage: scripts/ci-package.sh [build-dir]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="$(cd "${1:-$root/build/test}" && pwd)"
"$root/scripts/package.sh" "$build_dir"
runtime=$(ls "$build_dir"/packages/npu-pipeline_*.deb)
dev=$(ls "$build_dir"/packages/npu-pipeline-dev_*.deb)
fail() { echo "ci-package: $*" >&2; exit 1; }

depends=$(dpkg-deb -f "$runtime" Depends)
echo "npu-pipeline depends: $depends"
for forbidden in g++ cmake libboost-dev libflatbuffers; do
  case "$depends" in *"$forbidden"*) fail "the runtime package depends on $forbidden";; esac
done
arch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
runtime_files=$(dpkg-deb -c "$runtime")
dev_files=$(dpkg-deb -c "$dev")
grep -q "/usr/lib/$arch/libnpu-framework.so.0" <<<"$runtime_files" || fail "framework library not in /usr/lib/$arch"
grep -q "/usr/lib/$arch/libnpu-framework.so " <<<"$dev_files" || fail "the -dev package has no link to the library"
grep -q "/usr/lib/$arch/npu-pipeline/plugins/npu_perf_u55.so" <<<"$runtime_files" || fail "plugins not in /usr/lib/$arch"
grep -q "/usr/share/doc/npu-pipeline/copyright" <<<"$runtime_files" || fail "no copyright file"
grep -q "/usr/share/doc/npu-pipeline-dev/copyright" <<<"$dev_files" || fail "no copyright file in -dev"
grep -q "/usr/include/npu/plugin/accelerator.hpp" <<<"$dev_files" || fail "no SDK headers in -dev"
if grep -q "/usr/include/" <<<"$runtime_files"; then fail "headers in the runtime package"; fi

export DEBIAN_FRONTEND=noninteractive
apt-get install -y --no-install-recommends "$runtime" "$dev" >/dev/null
work="$(mktemp -d)"
trap 'rm -rf "$work"; apt-get remove -y npu-pipeline-dev npu-pipeline >/dev/null 2>&1 || true' EXIT
"$build_dir/bin/npu-model-gen" mobilenet-v1 --alpha 0.25 --resolution 96 -o "$work/model.tflite" >/dev/null
(cd "$work" && /usr/bin/npu-pipeline run /usr/share/npu-pipeline/configs/reference/C1-cascade.yaml model.tflite \
  -o out --quiet)
test -s "$work/out/model_vela.tflite" || fail "the installed command wrote no optimised model"
(cd "$work" && env -u PYTHONPATH /usr/bin/python3 -c '
import npu_pipeline
result = npu_pipeline.compile("model.tflite", "C1-cascade")
assert result.totals["cycles"]["total"] > 0, result.totals
assert result.output_model == open("out/model_vela.tflite", "rb").read()
print("installed python module:", npu_pipeline.__version__, result)
')
echo "ci-package: passed"
