#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks that a change leaves every output byte-identical: compiles each model with each pipeline at
each thread count into OUT/<pipeline>/<threads>/<model>/ (the `_vela.tflite` and every report file),
then, given --against REFERENCE_OUT, compares every file byte for byte and lists the differences.

usage: bench/same_outputs.py --build BUILD_DIR --out OUT [--against REFERENCE_OUT]
           [--models /work/shared/models] [--pipelines C1-cascade C3-cascade C5-cascade C1-dp]
           [--threads 1 2] [--jobs 2]

Run it once with the build before a change (the reference) and after every change with --against.
Exit code 0 when every file is equal (or when only compiling), 1 otherwise.
"""

import argparse
import filecmp
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import List, Tuple

REPO = Path(__file__).resolve().parent.parent


def compile_one(binary: Path, pipeline: Path, model: Path, threads: int, out: Path) -> Tuple[str, int, str]:
    out.mkdir(parents=True, exist_ok=True)
    command = [str(binary), "run", str(pipeline), str(model), "-o", str(out), "--quiet", "--threads", str(threads)]
    result = subprocess.run(command, capture_output=True, text=True)
    # A compile error is an output too: keep its exit code and message for the comparison.
    (out / "exit_status.txt").write_text(f"{result.returncode}\n{result.stderr}")
    return (str(out), result.returncode, result.stderr)


def compare(out: Path, reference: Path) -> List[str]:
    differences = []
    ours = {p.relative_to(out) for p in out.rglob("*") if p.is_file()}
    theirs = {p.relative_to(reference) for p in reference.rglob("*") if p.is_file()}
    for missing in sorted(theirs - ours):
        differences.append(f"missing: {missing}")
    for extra in sorted(ours - theirs):
        differences.append(f"extra: {extra}")
    for common in sorted(ours & theirs):
        if not filecmp.cmp(out / common, reference / common, shallow=False):
            differences.append(f"differs: {common}")
    return differences


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--against", type=Path)
    parser.add_argument("--models", type=Path, default=Path("/work/shared/models"))
    parser.add_argument("--pipelines", nargs="+", default=["C1-cascade", "C3-cascade", "C5-cascade", "C1-dp"])
    parser.add_argument("--threads", nargs="+", type=int, default=[1, 2])
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()

    binary = args.build / "bin" / "npu-pipeline"
    models = sorted(args.models.glob("*.tflite"))
    jobs = []
    for name in args.pipelines:
        pipeline = REPO / "configs" / "reference" / f"{name}.yaml"
        for threads in args.threads:
            for model in models:
                jobs.append((binary, pipeline, model, threads, args.out / name / str(threads) / model.stem))
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(lambda job: compile_one(*job), jobs))
    failures = [r for r in results if r[1] != 0]
    print(f"{len(results)} compiles, {len(failures)} with a non-zero exit code")
    if args.against is None:
        return 0
    differences = compare(args.out, args.against)
    for line in differences:
        print(line)
    print(f"{len(differences)} differences against {args.against}")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
