#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Compile time side by side with Vela: whole-process wall time, CPU time (user + system) and peak
resident memory of `npu-pipeline run PIPELINE MODEL -o DIR` at 1 and 2 threads and of the Vela command
given, runs interleaved, best of N; then the same for a generated network of 10,001 layers, with the
pipeline as it is and with its codegen stage taken out. Prints Markdown for docs/benchmarks.md.

usage: bench/compile_time.py --build BUILD_DIR --model MODEL.tflite
           [--vela "VELA_COMMAND OPTIONS..."] [--vela-cwd DIR] [--pipeline configs/reference/C1-cascade.yaml]
           [--runs 5] [--large-runs 3] [--no-large]

The Vela command is run as given with `MODEL --output-dir TMP` appended, from --vela-cwd, e.g.
  --vela "/work/oracle/bin/vela310 --config Arm/vela.ini --accelerator-config ethos-u55-128
          --system-config Ethos_U55_High_End_Embedded --memory-mode Shared_Sram --optimise Performance"
Never run from tests or CI: timings belong here, and Vela is not installed there.
"""

import argparse
import os
import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Optional

REPO = Path(__file__).resolve().parent.parent
LARGE_BLOCKS = 4998  # npu-model-gen mobilenet-v1 has 2 * blocks + 5 operators: 10,001


@dataclass
class Measure:
    wall_s: float
    cpu_s: float
    peak_rss_mib: float


def measure(command: List[str], cwd: Optional[Path] = None) -> Measure:
    """Runs one process to completion and reads its resource usage (its own, not this script's)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    stderr = process.stderr.read().decode(errors="replace") if process.stderr else ""
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{shlex.join(command)} failed:\n{stderr}")
    return Measure(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0)


def best_of(runs: List[Measure]) -> Measure:
    """The fastest wall and CPU times (each its own minimum) and the largest peak memory."""
    return Measure(min(r.wall_s for r in runs), min(r.cpu_s for r in runs), max(r.peak_rss_mib for r in runs))


def interleaved(variants: Dict[str, Callable[[Path], List[str]]], runs: int, work: Path,
                cwd: Dict[str, Path]) -> Dict[str, Measure]:
    """Every variant once per round, `runs` rounds, each run into a fresh output folder: a busy moment of
    the machine hits all variants alike, and the best of N is the least disturbed run."""
    results: Dict[str, List[Measure]] = {name: [] for name in variants}
    for round_index in range(runs):
        for name, command in variants.items():
            out = work / f"{name.replace(' ', '_')}-{round_index}"
            out.mkdir()
            results[name].append(measure(command(out), cwd.get(name)))
            print(f"  {name}: {results[name][-1]}", file=sys.stderr)
    return {name: best_of(values) for name, values in results.items()}


def without_codegen(pipeline: Path, directory: Path) -> Path:
    """The pipeline with its codegen stage taken out (the scheduler's figures alone)."""
    lines = [line for line in pipeline.read_text().splitlines() if "- codegen:" not in line]
    stripped = directory / f"{pipeline.stem}-no-codegen.yaml"
    stripped.write_text("\n".join(lines) + "\n")
    return stripped


def ours(binary: Path, pipeline: Path, model: Path, threads: int) -> Callable[[Path], List[str]]:
    return lambda out: [str(binary), "run", str(pipeline), str(model), "-o", str(out), "--quiet", "--threads",
                        str(threads)]


def table(results: Dict[str, Measure], baseline: Optional[str]) -> List[str]:
    lines = ["| compiler | wall (s) | CPU (s) | peak RSS (MiB) | wall vs Vela | CPU vs Vela |",
             "| --- | --- | --- | --- | --- | --- |"]
    for name, m in results.items():
        ratio_wall = ratio_cpu = ""
        if baseline and name != baseline:
            ratio_wall = f"{results[baseline].wall_s / m.wall_s:.1f}x"
            ratio_cpu = f"{results[baseline].cpu_s / m.cpu_s:.1f}x"
        lines.append(f"| {name} | {m.wall_s:.3f} | {m.cpu_s:.3f} | {m.peak_rss_mib:.1f} | {ratio_wall} | {ratio_cpu} |")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", type=Path, required=True)
    parser.add_argument("--model", type=Path, required=True)
    parser.add_argument("--pipeline", type=Path, default=REPO / "configs" / "reference" / "C1-cascade.yaml")
    parser.add_argument("--vela", help="Vela's command line without the model and --output-dir")
    parser.add_argument("--vela-cwd", type=Path, help="folder to run Vela from (its --config is relative)")
    parser.add_argument("--runs", type=int, default=5, help="rounds for the model (the fastest counts)")
    parser.add_argument("--large-runs", type=int, default=3, help="rounds for the 10,001-layer network")
    parser.add_argument("--no-large", action="store_true", help="skip the 10,001-layer network")
    args = parser.parse_args()
    # The pipeline without codegen is written to a temporary folder: its system and memory-mode names
    # are then found in the repository's configs.
    os.environ["NPU_PIPELINE_CONFIG_PATH"] = ":".join(
        filter(None, [os.environ.get("NPU_PIPELINE_CONFIG_PATH"), str(REPO / "configs")]))
    binary = (args.build / "bin" / "npu-pipeline").resolve()
    model = args.model.resolve()
    pipeline = args.pipeline.resolve()

    lines = [f"### {model.stem}, {pipeline.name} (best of {args.runs}, interleaved)", ""]
    with tempfile.TemporaryDirectory(prefix="npu-compile-time-") as tmp:
        work = Path(tmp)
        variants: Dict[str, Callable[[Path], List[str]]] = {}
        cwd: Dict[str, Path] = {}
        if args.vela:
            vela = shlex.split(args.vela)
            variants["Vela"] = lambda out: vela + [str(model), "--output-dir", str(out)]
            if args.vela_cwd:
                cwd["Vela"] = args.vela_cwd
        variants["npu-pipeline, 1 thread"] = ours(binary, pipeline, model, 1)
        variants["npu-pipeline, 2 threads"] = ours(binary, pipeline, model, 2)
        results = interleaved(variants, args.runs, work, cwd)
        lines += table(results, "Vela" if args.vela else None)
        one, two = results["npu-pipeline, 1 thread"], results["npu-pipeline, 2 threads"]
        lines += ["", f"1 -> 2 threads: {one.wall_s / two.wall_s:.2f}x wall "
                      f"(CPU {one.cpu_s:.3f} s -> {two.cpu_s:.3f} s).", ""]

        if not args.no_large:
            large = work / "mobilenet_v1_10001.tflite"
            subprocess.run([str(args.build / "bin" / "npu-model-gen"), "mobilenet-v1", "--alpha", "0.25",
                            "--resolution", "96", "--blocks", str(LARGE_BLOCKS), "-o", str(large)], check=True,
                           stdout=subprocess.DEVNULL)
            plain = without_codegen(pipeline, work)
            large_variants = {}
            for n in (1, 2):
                threads = f"{n} thread{'s' if n > 1 else ''}"
                large_variants[f"10,001 layers, {threads}"] = ours(binary, pipeline, large, n)
                large_variants[f"10,001 layers, no codegen, {threads}"] = ours(binary, plain, large, n)
            lines += [f"### Generated network of 10,001 layers, {pipeline.name} (best of {args.large_runs})", ""]
            lines += table(interleaved(large_variants, args.large_runs, work, {}), None)
            lines.append("")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
