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
# The same command gives the same inputs on every run and in every checkout (docs/reliability.md,
# "Reproducing a CI run"): the fuzzers run without address-space randomisation and without libFuzzer's
# timed corpus reload, from a copy at a path of fixed length, and compile with relative source paths.
# Longer runs: bench/fuzz.sh.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build/fuzz}"
jobs="${NPU_BUILD_JOBS:-$(nproc)}"
command -v clang++ >/dev/null || { echo "ci-fuzz: needs clang (apt-get install clang)" >&2; exit 2; }
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# ccache hands the compiler paths relative to the build tree: the sanitizers' file names in the binaries
# (and so their layout) do not depend on where the checkout is.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}"

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DNPU_BUILD_FUZZERS=ON -DNPU_SANITIZE=ON -DNPU_BUILD_TESTS=OFF -DNPU_BUILD_PYTHON=OFF "${launcher[@]}" >/dev/null
cmake --build "$build" --parallel "$jobs" --target fuzz_model_reader fuzz_pipeline npu-model-gen

work="$build/fuzz-work"
"$root/fuzz/make-corpus.sh" "$build/bin/npu-model-gen" "$work/seeds"
seed="${FUZZ_SEED:-1}"
# The run happens in a copy of the targets, their libraries, plugins, pipeline and seeds at a path of
# fixed length, with relative paths and a fixed environment: path and environment lengths otherwise change
# the heap and stack addresses the instrumented code compares (libFuzzer feeds compared values back into
# its mutations) and the string code the compile's messages run.
stage="$(mktemp -d /tmp/npu-fuzz.XXXXXXXX)"
trap 'rm -rf "$stage"' EXIT
libdir="$(sed -n 's/^CMAKE_INSTALL_LIBDIR:[A-Z]*=//p' "$build/CMakeCache.txt")"
mkdir -p "$stage/fuzz" "$stage/$libdir"
cp -a "$build/$libdir/." "$stage/$libdir/"
cp "$build/fuzz/fuzz_model_reader" "$build/fuzz/fuzz_pipeline" "$build/fuzz/pipeline.yaml" "$stage/fuzz/"
mkdir -p "$stage/share/npu-pipeline"
cp -rL "$build/share/npu-pipeline/configs" "$stage/share/npu-pipeline/" # accelerator and system configs
cp -r "$work/seeds" "$stage/seeds"
environment=(PATH=/usr/bin:/bin "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1"
  "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1" "NPU_FUZZ_PLUGIN_DIR=$stage/$libdir/npu-pipeline/plugins"
  "NPU_FUZZ_PIPELINE=$stage/fuzz/pipeline.yaml")
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
  local kept="$work/ci-$target" log="$work/ci-$target/log"
  rm -rf "$kept" "$stage/corpus" "$stage/findings"
  mkdir -p "$kept" "$stage/corpus" "$stage/findings"
  echo "== fuzz $target: $runs inputs, seed $seed"
  # -reload=0: libFuzzer otherwise rereads the corpus folder every second, at a time-dependent input.
  (cd "$stage" && env -i "${environment[@]}" "${fuzz_prefix[@]}" "fuzz/$target" -runs="$runs" -seed="$seed" -reload=0 \
    -timeout="${FUZZ_TIMEOUT:-25}" -rss_limit_mb="${FUZZ_RSS_MB:-2048}" -max_len=262144 -artifact_prefix=findings/ \
    -print_final_stats=1 corpus seeds) >"$log" 2>&1 || true
  mv "$stage/corpus" "$stage/findings" "$kept/"
  grep -E "^#[0-9]+[[:space:]]+(INITED|DONE)|stat::|ERROR|SUMMARY|Test unit written" "$log" || true
  # The inputs that grew the corpus, as a fingerprint of the run: equal on two machines, equal runs.
  echo "new inputs: $(grep -cE "^#[0-9]+[[:space:]]+NEW" "$log"), the last: $(grep -E "^#[0-9]+[[:space:]]+NEW" "$log" |
    tail -1 | sed -E 's/ +exec\/s: [0-9]+ rss: [0-9]+Mb//')"
  if [ -n "$(ls -A "$kept/findings")" ]; then
    echo "ci-fuzz: $target found a problem: $(ls "$kept/findings") (in $kept/findings; full log: $log)" >&2
    for finding in "$kept/findings"/*; do
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
