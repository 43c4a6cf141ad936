#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Throughput of a local `npu-pipeline sweep` over a folder of networks x 8 configurations (4 Ethos-U55
variants x 2 scheduler goals on a reference pipeline), and what the sweep machinery costs over plain
`npu-pipeline run` calls doing the same compiles: one process per compile, one after another and two at
a time. Wall time of whole processes; prints a Markdown section for docs/benchmarks.md.

usage: bench/sweep_throughput.py --build BUILD_DIR --models DIR [--limit N] [--pipeline C1-cascade]
"""

import argparse
import itertools
import resource
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


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measured(action) -> tuple[float, float]:
    """Wall and CPU (user + system, of the processes started) seconds of an action."""
    cpu, start = children_cpu(), time.perf_counter()
    action()
    return time.perf_counter() - start, children_cpu() - cpu


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

        def runs(workers: int) -> None:
            with ThreadPoolExecutor(max_workers=workers) as pool:
                list(pool.map(run_one, points))

        sweep_1 = measured(lambda: run_sweep(1, "one"))
        runs_1 = measured(lambda: runs(1))
        sweep_2 = measured(lambda: run_sweep(2, "two"))
        runs_2 = measured(lambda: runs(2))
        resumed = measured(lambda: run_sweep(2, "two"))  # every point done: planning, hashing, the table
        table = (work / "two" / "sweep.csv").read_text().splitlines()[1:]
        failed = sum(1 for row in table if ",ok," not in row)

    count = len(points)
    print(f"{len(networks)} networks x {len(VARIANTS) * len(GOALS)} configurations = {count} compiles "
          f"({failed} do not compile and are rows with the reason), `{args.pipeline}` with codegen.\n")
    def row(how: str, figures: tuple[float, float], base=None) -> str:
        wall, cpu = figures
        versus = f"{100 * (wall / base[0] - 1):+.1f}% | {100 * (cpu / base[1] - 1):+.1f}%" if base else " | "
        return f"| {how} | {wall:.2f} | {count / wall:.2f} | {cpu:.2f} | {versus} |"

    print("| how | wall (s) | compiles/s | CPU (s) | wall vs `run` | CPU vs `run` |")
    print("| --- | --- | --- | --- | --- | --- |")
    print(row("`run` per compile, one at a time", runs_1))
    print(row("`sweep --threads 1`", sweep_1, runs_1))
    print(row("`run` per compile, two processes at a time", runs_2))
    print(row("`sweep --threads 2`", sweep_2, runs_2))
    print(f"| `sweep --threads 2`, every point already done | {resumed[0]:.2f} | | {resumed[1]:.2f} | | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
