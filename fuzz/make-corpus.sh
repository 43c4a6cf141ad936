#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Writes the fuzzers' seed corpus: small generated models (MobileNet v1/v2 and random networks of
# many operator kinds), made by npu-model-gen, so that nothing depends on downloaded models.
# usage: fuzz/make-corpus.sh <npu-model-gen> <output-dir>
set -euo pipefail
generator="$1"
out="$2"
# Only this list: a seed left from an older list would make the run differ from CI's.
mkdir -p "$out"
rm -f "$out"/*.tflite
"$generator" mobilenet-v1 --alpha 0.25 --resolution 32 --blocks 2 --classes 10 -o "$out/mobilenet_v1_small.tflite" >/dev/null
"$generator" mobilenet-v2 --alpha 0.35 --resolution 32 --blocks 2 --classes 10 -o "$out/mobilenet_v2_small.tflite" >/dev/null
for seed in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
  "$generator" random --seed "$seed" --operators 6 -o "$out/random_$seed.tflite" >/dev/null
done
"$generator" random --seed 21 --type int16 --operators 6 -o "$out/random_int16.tflite" >/dev/null
# libFuzzer runs the seeds smallest first; two of one size would run in directory order, which differs
# between file systems.
duplicates="$(find "$out" -name '*.tflite' -printf '%s\n' | sort | uniq -d)"
[ -z "$duplicates" ] || echo "make-corpus: note: seeds of equal size ($duplicates bytes) run in file-system order" >&2
