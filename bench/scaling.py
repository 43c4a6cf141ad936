#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Compile-time scaling: whole-process compile time and peak memory on generated MobileNet-v1 networks
of about 10, 100, 1,000 and 10,000 layers, and the speed-up from 1 to 2 TBB threads on the largest
real models. Prints Markdown (bench/parity.py writes the comparison with Vela's wall times).

usage: bench/scaling.py --build BUILD_DIR [--shared SHARED_DIR] [--pipeline configs/reference/C1-cascade.yaml]
"""

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import parity_lib as lib  # noqa: E402

# MobileNet-v1 from npu-model-gen has 2 * blocks + 5 operators.
LAYER_TARGETS = {11: 3, 101: 48, 1001: 498, 10001: 4998}
THREAD_MODELS = ["nc_mobilenet_v2_224_int8", "coral_deeplabv3_mnv2_dm05_pascal_uint8",
                 "mlperf_mobile_mobilenet_edgetpu_224_uint8"]


def generate(build: Path, blocks: int, path: Path):
    subprocess.run([str(build / "bin" / "npu-model-gen"), "mobilenet-v1", "--alpha", "0.25", "--resolution", "96",
                    "--blocks", str(blocks), "-o", str(path)], check=True, stdout=subprocess.DEVNULL)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", type=Path, required=True)
    parser.add_argument("--shared", type=Path)
    parser.add_argument("--pipeline", type=Path, default=lib.REPO / "configs" / "reference" / "C1-cascade.yaml")
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement (the fastest counts)")
    args = parser.parse_args()
    binary = args.build / "bin" / "npu-pipeline"

    lines = [f"### Generated networks ({args.pipeline.name}, best of {args.repeat})", "",
             "| layers | compile time (s) | peak memory (MiB) | per layer (ms) |", "| --- | --- | --- | --- |"]
    with tempfile.TemporaryDirectory(prefix="npu-scaling-") as work:
        for layers, blocks in LAYER_TARGETS.items():
            model = Path(work) / f"mobilenet_v1_{layers}.tflite"
            generate(args.build, blocks, model)
            runs = [lib.run_pipeline(binary, args.pipeline, model) for _ in range(args.repeat)]
            failed = [r for r in runs if not r.ok]
            if failed:
                lines.append(f"| {layers} | failed: {failed[0].error} | | |")
                continue
            best = min(runs, key=lambda r: r.wall_s)
            lines.append(f"| {layers} | {best.wall_s:.3f} | {max(r.peak_rss_mb for r in runs):.1f} | "
                         f"{best.wall_s / layers * 1e3:.3f} |")
            print(f"{layers} layers: {best.wall_s:.3f} s", file=sys.stderr)
    lines.append("")
    if args.shared:
        lines += [f"### Threads ({args.pipeline.name}, best of {args.repeat})", "",
                  "| model | 1 thread (s) | 2 threads (s) | speed-up |", "| --- | --- | --- | --- |"]
        for name in THREAD_MODELS:
            model = args.shared / "models" / f"{name}.tflite"
            if not model.exists():
                continue
            times = {}
            for threads in (1, 2):
                runs = [lib.run_pipeline(binary, args.pipeline, model, ["--threads", str(threads)])
                        for _ in range(args.repeat)]
                times[threads] = min(r.wall_s for r in runs) if all(r.ok for r in runs) else None
            if times[1] and times[2]:
                lines.append(f"| {name} | {times[1]:.3f} | {times[2]:.3f} | {times[1] / times[2]:.2f}x |")
            else:
                lines.append(f"| {name} | failed | failed | |")
        lines.append("")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
