#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# CI: ThreadSanitizer over the scheduler suites, the code that evaluates candidates in parallel (TBB)
# and must give identical answers at any thread count. Built with clang -fsanitize=thread; only the
# scheduler test targets and what they load are built. TBB itself is not instrumented, so TSan cannot
# see the ordering its task scheduler provides: the suppressions in scripts/tsan.supp hide reports
# whose racing accesses are both inside libtbb (none in our code is suppressed).
# usage: scripts/ci-tsan.sh [build-dir]        (default build/tsan)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build/tsan}"
jobs="${NPU_BUILD_JOBS:-$(nproc)}"
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DNPU_TSAN=ON -DNPU_BUILD_TESTS=ON -DNPU_BUILD_PYTHON=OFF "${launcher[@]}" >/dev/null
cmake --build "$build" --parallel "$jobs" --target scheduler_common_tests scheduler_cascade_tests scheduler_dp_tests
# The parity cases compile whole shared models (minutes under TSan); the unit suites cover the parallel code.
unset NPU_PIPELINE_MODELS NPU_PIPELINE_REFERENCE
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$root/scripts/tsan.supp:${TSAN_OPTIONS:-}"
ctest --test-dir "$build" --output-on-failure -R scheduler
echo "ci-tsan: passed"
