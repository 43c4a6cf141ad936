#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What code generation adds to compile time: each model compiled with a reference pipeline as it is
(ending with `codegen: codegen_ethosu`) and with the codegen stage taken out, whole process, best of N
runs each, interleaved. Prints a Markdown table for docs/benchmarks.md.

usage: bench/codegen_overhead.py --build BUILD_DIR --models DIR_OR_FILES... [--pipeline C1-cascade] [--runs 5]
"""

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def without_codegen(pipeline: Path, directory: Path) -> Path:
    lines = [line for line in pipeline.read_text().splitlines() if "- codegen:" not in line]
    stripped = directory / f"{pipeline.stem}-no-codegen.yaml"
    stripped.write_text("\n".join(lines) + "\n")
    return stripped


def wall(binary: Path, pipeline: Path, model: Path, out: Path) -> float:
    start = time.perf_counter()
    subprocess.run([str(binary), "run", str(pipeline), str(model), "-o", str(out), "--quiet"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", type=Path, required=True)
    parser.add_argument("--models", type=Path, nargs="+", required=True)
    parser.add_argument("--pipeline", default="C1-cascade")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    binary = args.build / "bin" / "npu-pipeline"
    models = []
    for path in args.models:
        models += sorted(path.glob("*.tflite")) if path.is_dir() else [path]
    pipeline = REPO / "configs" / "reference" / f"{args.pipeline}.yaml"
    rows = []
    with tempfile.TemporaryDirectory(prefix="npu-codegen-bench-") as tmp:
        plain = without_codegen(pipeline, Path(tmp))
        for model in models:
            try:
                times = {"with": [], "without": []}
                for _ in range(args.runs):
                    times["without"].append(wall(binary, plain, model, Path(tmp) / "a"))
                    times["with"].append(wall(binary, pipeline, model, Path(tmp) / "b"))
            except subprocess.CalledProcessError:
                print(f"{model.stem}: does not compile, skipped", file=sys.stderr)
                continue
            best_with, best_without = min(times["with"]), min(times["without"])
            rows.append((model.stem, best_without, best_with, (best_with - best_without) / best_without * 100))
            print(f"{model.stem}: {best_without:.3f} s -> {best_with:.3f} s", file=sys.stderr)
    print(f"### Code generation overhead ({args.pipeline}, whole process, best of {args.runs})\n")
    print("| model | without codegen (s) | with codegen (s) | overhead |")
    print("| --- | --- | --- | --- |")
    for name, without, with_, overhead in rows:
        print(f"| {name} | {without:.3f} | {with_:.3f} | {overhead:+.1f}% |")
    if rows:
        print(f"\nMedian overhead {statistics.median(r[3] for r in rows):+.1f}%, "
              f"maximum {max(r[3] for r in rows):+.1f}%; total {sum(r[1] for r in rows):.2f} s -> "
              f"{sum(r[2] for r in rows):.2f} s ({(sum(r[2] for r in rows) / sum(r[1] for r in rows) - 1) * 100:+.1f}%).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
