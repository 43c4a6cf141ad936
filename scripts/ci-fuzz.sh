#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# CI: builds the libFuzzer targets (Debian's clang, -fsanitize=fuzzer,address,undefined over every
# library and plugin they use) and runs each for a fixed number of inputs from a seed corpus of
# generated models (tools/model_generator). Any crash, sanitizer report, internal error, input slower
# than FUZZ_TIMEOUT seconds or above FUZZ_RSS_MB fails the stage, with the input kept in the work dir
# and printed (gzip, base64) in the log.
# usage: scripts/ci-fuzz.sh [build-dir]        (default build/fuzz)
#   FUZZ_RUNS_READER (default 200000), FUZZ_RUNS_PIPELINE (default 1500): inputs per target
#   FUZZ_SEED (default 1): libFuzzer's -seed
# The same command gives the same inputs on any machine (docs/reliability.md, "Reproducing a CI run"):
# the fuzzers run without address-space randomisation (libstdc++'s inline code compares addresses, and
# coverage guides the inputs), without libFuzzer's timed corpus reload, on the plugins and pipeline copied
# to a path of fixed length.
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
seed="${FUZZ_SEED:-1}"
# Paths reach the compile's messages and records, and their length changes the string code that runs:
# the pipeline and its plugins are read from a directory whose path has the same length everywhere.
stage="$(mktemp -d /tmp/npu-fuzz.XXXXXXXX)"
trap 'rm -rf "$stage"' EXIT
cp -r "$build/lib/npu-pipeline/plugins" "$stage/plugins"
cp "$root/configs/reference/C1-cascade.yaml" "$stage/pipeline.yaml"
export NPU_FUZZ_PLUGIN_DIR="$stage/plugins" NPU_FUZZ_PIPELINE="$stage/pipeline.yaml"
# Without address-space randomisation: inline libstdc++ code compares addresses (a string assigned from
# a literal checks whether the two overlap), so with it every run covers slightly different edges and
# the same seed grows a different corpus.
fuzz_prefix=()
if setarch "$(uname -m)" -R true 2>/dev/null; then
  fuzz_prefix=(setarch "$(uname -m)" -R)
else
  echo "ci-fuzz: note: cannot disable address-space randomisation here; the inputs will differ between runs" >&2
fi
run() { # target runs
  local target="$1" runs="$2"
  # A fresh corpus and findings folder: the same seeds and inputs on every run (bench/fuzz.sh keeps its own).
  local corpus="$work/ci-$target/corpus" findings="$work/ci-$target/findings" log="$work/ci-$target/log"
  rm -rf "$work/ci-$target"
  mkdir -p "$corpus" "$findings"
  echo "== fuzz $target: $runs inputs, seed $seed"
  # -reload=0: libFuzzer otherwise rereads the corpus folder every second, at a time-dependent input.
  "${fuzz_prefix[@]}" "$build/fuzz/$target" -runs="$runs" -seed="$seed" -reload=0 -timeout="${FUZZ_TIMEOUT:-25}" \
    -rss_limit_mb="${FUZZ_RSS_MB:-2048}" -max_len=262144 -artifact_prefix="$findings/" -print_final_stats=1 \
    "$corpus" "$work/seeds" >"$log" 2>&1 || true
  grep -E "^#[0-9]+[[:space:]]+(INITED|DONE)|stat::|ERROR|SUMMARY|Test unit written" "$log" || true
  # The inputs that grew the corpus, as a fingerprint of the run: equal on two machines, equal runs.
  echo "new inputs: $(grep -cE "^#[0-9]+[[:space:]]+NEW" "$log"), the last: $(grep -E "^#[0-9]+[[:space:]]+NEW" "$log" | tail -1 |
    sed -E 's/ +exec\/s: [0-9]+ rss: [0-9]+Mb//')"
  if [ -n "$(ls -A "$findings")" ]; then
    echo "ci-fuzz: $target found a problem: $(ls "$findings") (full log: $log)" >&2
    for finding in "$findings"/*; do
      echo "ci-fuzz: $(basename "$finding"), gzip | base64 (decode: base64 -d | gunzip > input):" >&2
      gzip -9c "$finding" | base64 -w 120 | head -c 200000 >&2
      echo >&2
    done
    echo "ci-fuzz: reproduce with FUZZ_SEED=$seed scripts/ci-fuzz.sh, or run the input alone:" \
      "$build/fuzz/$target <input>" >&2
    exit 1
  fi
}
run fuzz_model_reader "${FUZZ_RUNS_READER:-200000}"
run fuzz_pipeline "${FUZZ_RUNS_PIPELINE:-1500}"
echo "ci-fuzz: passed"
