#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One command from a fresh clone: install what is missing, build everything with tests, run them.
# Tests that need the shared real models run when NPU_PIPELINE_MODELS points at them.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install-dependencies.sh"
"$root/scripts/build.sh" "$root/build/test"
ctest --test-dir "$root/build/test" --output-on-failure --parallel "$(nproc)" "$@"
