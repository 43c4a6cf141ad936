#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# CI: builds the libFuzzer targets (Debian's clang, -fsanitize=fuzzer,address,undefined over every
# library and plugin they use) and runs each for a fixed number of inputs from a seed corpus of
# generated models (tools/model_generator). Any crash, sanitizer report, internal error, input slower
# than FUZZ_TIMEOUT seconds or above FUZZ_RSS_MB fails the stage, with the input kept in the work dir.
# usage: scripts/ci-fuzz.sh [build-dir]        (default build/fuzz)
#   FUZZ_RUNS_READER (default 200000), FUZZ_RUNS_PIPELINE (default 1500): inputs per target
# Longer runs: bench/fuzz.sh.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build/fuzz}"
jobs="${NPU_BUILD_JOBS:-$(nproc)}"
command -v clang++ >/dev/null || { echo "ci-fuzz: needs clang (apt-get install clang)" >&2; exit 2; }
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DNPU_BUILD_FUZZERS=ON -DNPU_SANITIZE=ON -DNPU_BUILD_TESTS=OFF -DNPU_BUILD_PYTHON=OFF "${launcher[@]}" >/dev/null
cmake --build "$build" --parallel "$jobs" --target fuzz_model_reader fuzz_pipeline npu-model-gen

work="$build/fuzz-work"
"$root/fuzz/make-corpus.sh" "$build/bin/npu-model-gen" "$work/seeds"
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
run() { # target runs
  local target="$1" runs="$2"
  # A fresh corpus and findings folder: the same seeds and inputs on every run (bench/fuzz.sh keeps its own).
  local corpus="$work/ci-$target/corpus" findings="$work/ci-$target/findings"
  rm -rf "$work/ci-$target"
  mkdir -p "$corpus" "$findings"
  echo "== fuzz $target: $runs inputs"
  "$build/fuzz/$target" -runs="$runs" -seed=1 -timeout="${FUZZ_TIMEOUT:-25}" -rss_limit_mb="${FUZZ_RSS_MB:-2048}" \
    -max_len=262144 -artifact_prefix="$findings/" -print_final_stats=1 \
    "$corpus" "$work/seeds" 2>&1 | grep -E "^#[0-9]+ +(INITED|DONE)|stat::|ERROR|SUMMARY|Test unit written" || true
  if [ -n "$(ls -A "$findings")" ]; then
    echo "ci-fuzz: $target found a problem: $(ls "$findings")" >&2
    exit 1
  fi
}
run fuzz_model_reader "${FUZZ_RUNS_READER:-200000}"
run fuzz_pipeline "${FUZZ_RUNS_PIPELINE:-1500}"
echo "ci-fuzz: passed"
