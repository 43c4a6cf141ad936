#!/usr/bin/env python3
"""Throughput of a local `npu-pipeline sweep` over a folder of networks x 8 configurations (4 Ethos-U55
variants x 2 scheduler goals on a reference pipeline), and what the sweep machinery costs over plain
`npu-pipeline run` calls doing the same compiles: one process per compile, one after another and two at
a time. Wall time of whole processes; prints a Markdown section for docs/benchmarks.md.

usage: bench/sweep_throughput.py --build BUILD_DIR --models DIR [--limit N] [--pipeline C1-cascade]
"""

import argparse
import itertools
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
VARIANTS = ["ethos-u55-32", "ethos-u55-64", "ethos-u55-128", "ethos-u55-256"]
GOALS = ["performance", "size"]


def timed(command: list[str], accept=(0, 1)) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if done.returncode not in accept:
        sys.exit(f"failed ({done.returncode}): {' '.join(command)}")
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", type=Path, required=True)
    parser.add_argument("--models", type=Path, required=True)
    parser.add_argument("--limit", type=int, default=0, help="only the first N networks (sorted by name)")
    parser.add_argument("--pipeline", default="C1-cascade")
    args = parser.parse_args()
    binary = args.build / "bin" / "npu-pipeline"
    pipeline = REPO / "configs" / "reference" / f"{args.pipeline}.yaml"
    networks = sorted(args.models.glob("*.tflite"))
    if args.limit:
        networks = networks[: args.limit]
    points = list(itertools.product(networks, VARIANTS, GOALS))

    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        sweep = work / "sweep.yaml"
        sweep.write_text(
            f"name: throughput\npipeline: {pipeline}\naxes:\n"
            f"  accelerator.config: [{', '.join(VARIANTS)}]\n  scheduler.optimise: [{', '.join(GOALS)}]\n"
            "networks:\n" + "".join(f"  - {network}\n" for network in networks))

        def run_sweep(threads: int, output: str) -> float:
            return timed([str(binary), "sweep", str(sweep), "-o", str(work / output), "--threads", str(threads)])

        def run_one(point) -> float:
            network, variant, goal = point
            return timed([str(binary), "run", str(pipeline), str(network), "--quiet", "--threads", "1",
                          "--set", f"accelerator.config={variant}", "--set", f"scheduler.optimise={goal}"])

        sweep_1 = run_sweep(1, "one")
        sweep_2 = run_sweep(2, "two")
        resumed = run_sweep(2, "two")  # every point done: planning, hashing and the table only
        start = time.perf_counter()
        for point in points:
            run_one(point)
        runs_1 = time.perf_counter() - start
        start = time.perf_counter()
        with ThreadPoolExecutor(max_workers=2) as pool:
            list(pool.map(run_one, points))
        runs_2 = time.perf_counter() - start
        table = (work / "two" / "sweep.csv").read_text().splitlines()[1:]
        failed = sum(1 for row in table if ",ok," not in row)

    count = len(points)
    print(f"{len(networks)} networks x {len(VARIANTS) * len(GOALS)} configurations = {count} compiles "
          f"({failed} do not compile and are rows with the reason), `{args.pipeline}` with codegen.\n")
    print("| how | wall (s) | compiles/s | vs plain runs |")
    print("| --- | --- | --- | --- |")
    print(f"| `run` per compile, one at a time | {runs_1:.2f} | {count / runs_1:.1f} | |")
    print(f"| `sweep --threads 1` | {sweep_1:.2f} | {count / sweep_1:.1f} | {100 * (sweep_1 / runs_1 - 1):+.1f}% |")
    print(f"| `run` per compile, two processes at a time | {runs_2:.2f} | {count / runs_2:.1f} | |")
    print(f"| `sweep --threads 2` | {sweep_2:.2f} | {count / sweep_2:.1f} | {100 * (sweep_2 / runs_2 - 1):+.1f}% |")
    print(f"| `sweep --threads 2`, every point already done | {resumed:.2f} | | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
