#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Lowering time against the unrolled operator count (issue 13, item 2): the TFLM MNIST LSTM with its
batch raised to 1, 4, 16, 64 (input, states and outputs patched consistently, so the model stays valid);
each batch unrolls into 28 time steps of 18 NPU operations. Prints Markdown: wall time and peak memory of
`npu-pipeline run` with a lowering-only pipeline and with C1-cascade, and the time per unrolled operation
(flat when lowering is linear).

usage: bench/lstm_scaling.py --build BUILD_DIR --shared SHARED_DIR [--batches 1 4 16 64] [--repeat 3]
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import tflite_patch  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
LSTM_MODEL = "tflm_mnist_lstm_int8.tflite"
# Tensors whose first dimension is the batch in the MNIST LSTM (input, states, the LSTM output and the
# classifier after it); the reshape's own shape input is [-1, 560] and needs no change.
BATCHED_TENSORS = ["serving_default_fixed_input:0", "tfl.pseudo_qconst", "tfl.pseudo_qconst1",
                   "tfl.unidirectional_sequence_lstm", "model/sequential/flatten/Reshape",
                   "model/sequential/output/MatMul;model/sequential/output/BiasAdd", "StatefulPartitionedCall:0"]
TIME_STEPS = 28
OPERATIONS_PER_STEP = 18

LOWER_ONLY = """name: lowering only
accelerator: { plugin: perf_u55, config: ethos-u55-128 }
stages:
  - frontend: frontend_tflite
  - lowering: ethosu_lowering
"""


def batched_model(source: Path, batches: int, target: Path):
    data = bytearray(source.read_bytes())
    found = set()
    for name, shape_at, shape in tflite_patch.tensors(data):
        if name in BATCHED_TENSORS and shape and shape[0] == 1:
            tflite_patch.set_dimension(data, shape_at, 0, batches)
            found.add(name)
    missing = set(BATCHED_TENSORS) - found
    if missing:
        raise SystemExit(f"{source}: tensors not found: {sorted(missing)}")
    target.write_bytes(bytes(data))


def timed_run(binary: Path, pipeline: Path, model: Path):
    start = time.perf_counter()
    process = subprocess.Popen([str(binary), "run", str(pipeline), str(model), "--quiet"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    error = process.stderr.read().strip().splitlines()[:1] if code != 0 else []
    return wall, usage.ru_maxrss / 1024.0, (error[0] if error else f"exit {code}") if code != 0 else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", type=Path, required=True)
    parser.add_argument("--shared", type=Path, required=True)
    parser.add_argument("--batches", type=int, nargs="+", default=[1, 4, 16, 64])
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement (the fastest counts)")
    args = parser.parse_args()
    binary = args.build / "bin" / "npu-pipeline"
    source = args.shared / "models" / LSTM_MODEL
    pipelines = {"lowering only": None, "C1-cascade": REPO / "configs" / "reference" / "C1-cascade.yaml"}
    lines = [f"### LSTM unrolling (MNIST LSTM, batch patched, best of {args.repeat})", "",
             "| batch | unrolled operations | pipeline | time (s) | peak memory (MiB) | per operation (ms) |",
             "| --- | --- | --- | --- | --- | --- |"]
    with tempfile.TemporaryDirectory(prefix="npu-lstm-") as work:
        lower_only = Path(work) / "lower_only.yaml"
        lower_only.write_text(LOWER_ONLY)
        pipelines["lowering only"] = lower_only
        for batches in args.batches:
            model = Path(work) / f"mnist_lstm_batch{batches}.tflite"
            batched_model(source, batches, model)
            operations = batches * TIME_STEPS * OPERATIONS_PER_STEP
            for label, pipeline in pipelines.items():
                runs = [timed_run(binary, pipeline, model) for _ in range(args.repeat)]
                failures = [r[2] for r in runs if r[2]]
                if failures:
                    lines.append(f"| {batches} | {operations} | {label} | failed: {failures[0]} | | |")
                    continue
                wall = min(r[0] for r in runs)
                memory = max(r[1] for r in runs)
                lines.append(f"| {batches} | {operations} | {label} | {wall:.3f} | {memory:.1f} | "
                             f"{wall / operations * 1e3:.3f} |")
                print(f"batch {batches} {label}: {wall:.3f} s", file=sys.stderr)
    lines.append("")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
