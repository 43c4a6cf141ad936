#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""1 -> 2 threads: whole-process wall time of `npu-pipeline run PIPELINE MODEL -o DIR --threads N` at 1 and 2
threads, runs interleaved, best of N, for one or more models; optionally the CPU time of each thread of a
2-thread run (perf sched). Prints Markdown for docs/benchmarks.md.

usage: bench/thread_scaling.py --build BUILD_DIR [--build OTHER_BUILD_DIR...] MODEL.tflite...
           [--pipeline configs/reference/C1-cascade.yaml] [--runs 7] [--realtime PRIORITY] [--per-thread]

With several builds (e.g. before and after a change), every round runs each build at 1 and 2 threads, so a
busy moment of the machine hits all alike; a build folder may also be a copy of a build's bin/, lib/ and
share/ (its libraries are then found through LD_LIBRARY_PATH).

On a shared, loaded machine a second runnable thread mostly waits for a core, so wall times say little about
what two free cores give. --realtime P runs each compile under `chrt -f P` (SCHED_FIFO, needs root or
CAP_SYS_NICE): the compile then has both cores while it runs (a fraction of a second each), which is what
an idle machine gives it. --per-thread records a 2-thread run with `perf sched record` and reports the CPU
time of its busiest thread and of all its threads (the busiest thread bounds the wall time from below;
TBB's workers spin a little before sleeping, which counts as their CPU time).
Never run from tests or CI: timings belong here.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Optional, Tuple

REPO = Path(__file__).resolve().parent.parent


def command(binary: Path, pipeline: Path, model: Path, out: Path, threads: int, realtime: Optional[int]) -> List[str]:
    prefix = ["chrt", "-f", str(realtime)] if realtime else []
    return prefix + [str(binary), "run", str(pipeline), str(model), "-o", str(out), "--quiet", "--threads",
                     str(threads)]


def environment(build: Path) -> Dict[str, str]:
    """The environment that makes a build's binary load that build's framework library."""
    env = dict(os.environ)
    libraries = [str(p.parent) for p in build.glob("lib/*/libnpu-framework.so*")]
    if libraries:
        env["LD_LIBRARY_PATH"] = ":".join(sorted(set(libraries)) + [env.get("LD_LIBRARY_PATH", "")])
    return env


def measure(argv: List[str], env: Optional[Dict[str, str]] = None) -> Tuple[float, float]:
    """Wall and CPU (user + system) seconds of one process."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        stderr = process.stderr.read().decode(errors="replace") if process.stderr else ""
        raise RuntimeError(f"{' '.join(argv)} failed:\n{stderr}")
    return wall, usage.ru_utime + usage.ru_stime


def per_thread_ms(argv: List[str], work: Path, env: Dict[str, str]) -> List[float]:
    """CPU milliseconds of each thread of the compile, busiest first (perf sched timehist -s)."""
    data = work / "sched.data"
    subprocess.run(["perf", "sched", "record", "-o", str(data), "--"] + argv, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    summary = subprocess.run(["perf", "sched", "timehist", "-i", str(data), "-s"], check=True,
                             capture_output=True, text=True).stdout
    # Rows: "comm[tid]" or "comm[tid/pid]", parent, ...: the compile is perf's child (chrt execs it); other
    # engineers' compiles that ran meanwhile are left out.
    rows = re.findall(r"(\S+)\[(\d+)(?:/(\d+))?\]\s+(\d+)\s+\d+\s+([\d.]+)", summary)
    perf = {tid for comm, tid, pid, _, _ in rows if comm == "perf" and not pid}
    main_ids = {tid for comm, tid, pid, parent, _ in rows if comm == "npu-pipeline" and not pid and parent in perf}
    ours = [float(ms) for comm, tid, pid, _, ms in rows if (pid or tid) in main_ids]
    return sorted(ours, reverse=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", type=Path, action="append", required=True)
    parser.add_argument("models", type=Path, nargs="+")
    parser.add_argument("--pipeline", type=Path, default=REPO / "configs" / "reference" / "C1-cascade.yaml")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--realtime", type=int, help="run each compile under chrt -f PRIORITY")
    parser.add_argument("--per-thread", action="store_true", help="add perf sched's CPU time per thread")
    args = parser.parse_args()
    builds = [build.resolve() for build in args.build]
    named = len(builds) > 1
    pipeline = args.pipeline.resolve()
    label = "| build " if named else ""
    lines = [f"| model {label}| 1 thread wall (s) | 2 threads wall (s) | speed-up | CPU 1 thread (s) | CPU 2 threads (s) |",
             "| --- " + ("| --- " if named else "") + "| ---: | ---: | ---: | ---: | ---: |"]
    threads_lines = [f"| model {label}| busiest thread (ms) | all threads (ms) | total / busiest |",
                     "| --- " + ("| --- " if named else "") + "| ---: | ---: | ---: |"]
    with tempfile.TemporaryDirectory(prefix="npu-thread-scaling-") as tmp:
        work = Path(tmp)
        for model in args.models:
            model = model.resolve()
            best: Dict[Tuple[int, int], Tuple[float, float]] = {}
            for round_index in range(args.runs):
                for b, build in enumerate(builds):
                    for threads in (1, 2):
                        out = work / f"{model.stem}-{b}-{threads}-{round_index}"
                        out.mkdir()
                        argv = command(build / "bin" / "npu-pipeline", pipeline, model, out, threads, args.realtime)
                        wall, cpu = measure(argv, environment(build))
                        old = best.get((b, threads), (wall, cpu))
                        best[(b, threads)] = (min(old[0], wall), min(old[1], cpu))
            for b, build in enumerate(builds):
                (w1, c1), (w2, c2) = best[(b, 1)], best[(b, 2)]
                cell = f"| {build.name} " if named else ""
                lines.append(f"| {model.stem} {cell}| {w1:.3f} | {w2:.3f} | {w1 / w2:.2f}x | {c1:.3f} | {c2:.3f} |")
                print(lines[-1], file=sys.stderr)
            if args.per_thread:
                for b, build in enumerate(builds):
                    samples = []
                    for round_index in range(3):
                        out = work / f"{model.stem}-sched-{b}-{round_index}"
                        out.mkdir()
                        argv = command(build / "bin" / "npu-pipeline", pipeline, model, out, 2, args.realtime)
                        samples.append(per_thread_ms(argv, work, environment(build)))
                    chosen = min(samples, key=lambda s: s[0] if s else float("inf"))
                    if chosen:
                        cell = f"| {build.name} " if named else ""
                        threads_lines.append(f"| {model.stem} {cell}| {chosen[0]:.1f} | {sum(chosen):.1f} | "
                                             f"{sum(chosen) / chosen[0]:.2f}x |")
    print(f"Pipeline {pipeline.name}, best of {args.runs} interleaved runs"
          f"{f', each under chrt -f {args.realtime}' if args.realtime else ''}.\n")
    print("\n".join(lines))
    if args.per_thread:
        print("\nCPU time per thread of a 2-thread run (perf sched), the run with the least busy thread of 3:\n")
        print("\n".join(threads_lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
