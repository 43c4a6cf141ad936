#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Longer fuzzing runs than CI's: each target for SECONDS seconds (default 1800) on all cores, keeping
# the grown corpus in build/fuzz/fuzz-work/<target>/corpus between runs. Prints executions and findings.
# usage: bench/fuzz.sh [seconds] [build-dir]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-1800}"
build="${2:-$root/build/fuzz}"
FUZZ_RUNS_READER=1 FUZZ_RUNS_PIPELINE=1 "$root/scripts/ci-fuzz.sh" "$build" >/dev/null
work="$build/fuzz-work"
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
for target in fuzz_model_reader fuzz_pipeline; do
  mkdir -p "$work/$target/corpus" "$work/$target/findings"
  echo "== $target for $seconds s"
  "$build/fuzz/$target" -max_total_time="$seconds" -fork="$(nproc)" -ignore_crashes=1 -timeout=25 \
    -rss_limit_mb=2048 -max_len=262144 -artifact_prefix="$work/$target/findings/" \
    "$work/$target/corpus" "$work/seeds" 2>&1 | grep -E "^#[0-9]+.*DONE|INFO: fuzzed for|crash|timeout|oom" | tail -5 || true
  echo "findings: $(ls "$work/$target/findings" | wc -l) in $work/$target/findings"
done
