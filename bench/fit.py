#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Fitting in 512 KiB (issue 15): for every shared model and pipeline (by default the C5 cascade and DP
reference pipelines, arena_cache_size 512 KiB; more pipelines as arguments), whether the network fits
the pipeline's SRAM limit (with its SRAM peak) or the limit the error names as the smallest that fits,
and the smallest SRAM that fits every network (the same search, started from a 1 KiB limit). Each
smallest limit is spot-checked with the search off: it compiles, 1 KiB less does not, and a few larger
limits (+16 KiB, +64 KiB, twice it) compile too — a check that fitting is monotone in the limit — and
the SRAM peak at the pipeline's own limit is compared with it (a scheduler planning for a large limit can
make a smaller schedule than it makes when the limit is tight).

usage: bench/fit.py --build BUILD_DIR --shared SHARED_DIR [--output docs/fit.md] [PIPELINE.yaml ...]
"""

import argparse
import re
import sys
import time
from pathlib import Path
from typing import List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))
import parity_lib as lib  # noqa: E402

REPO = lib.REPO
KIB = 1024
SMALLEST = re.compile(r"limit that fits this network with this pipeline is ([0-9,]+) bytes")
RUNS = re.compile(r"(\d+) scheduler runs?\)")


BETWEEN = re.compile(r"it fits in ([0-9,]+) bytes .* and not in ([0-9,]+) bytes")


def named_limit(error: str) -> Optional[int]:
    match = SMALLEST.search(error) or BETWEEN.search(error)
    return int(match.group(1).replace(",", "")) if match else None


def bracket(error: str) -> str:
    """"16176 < L <= 16192" (KiB) when the search stopped at its cap before converging, else ""."""
    match = BETWEEN.search(error)
    if not match:
        return ""
    fits, fails = (int(group.replace(",", "")) for group in match.groups())
    return f"{kib(fails)} < L ≤ {kib(fits)}"


def compile_at(binary: Path, pipeline: Path, model: Path, limit: Optional[int], search: bool = True):
    extra = [] if limit is None else ["--set", f"accelerator.arena_cache_size={limit}"]
    if not search:
        extra += ["--set", "fit_search=false"]
    start = time.perf_counter()
    result = lib.run_pipeline(binary, pipeline, model, extra)
    return result, time.perf_counter() - start


def kib(value: Optional[float]) -> str:
    return "-" if value is None else f"{value / KIB:.1f}"


def smallest_fitting(binary: Path, pipeline: Path, model: Path) -> tuple:
    """The smallest limit that fits, searched from 1 KiB: (limit or None, runs, wall s, note)."""
    result, wall = compile_at(binary, pipeline, model, KIB)
    if result.ok:
        return KIB, 0, wall, "fits in 1 KiB"
    named = named_limit(result.error)
    runs = RUNS.search(result.error)
    note = bracket(result.error) if named else f"fails: {result.error[:80]}"
    return named, int(runs.group(1)) if runs else 0, wall, note


def spot_check(binary: Path, pipeline: Path, model: Path, limit: int) -> str:
    """'ok' when `limit` and larger limits fit and `limit` - 1 KiB does not; else what broke."""
    broken = []
    if limit > KIB and compile_at(binary, pipeline, model, limit - KIB, search=False)[0].ok:
        broken.append(f"{kib(limit - KIB)} KiB fits")
    for candidate in (limit, limit + 16 * KIB, limit + 64 * KIB, 2 * limit):
        if not compile_at(binary, pipeline, model, candidate, search=False)[0].ok:
            broken.append(f"{kib(candidate)} KiB fails")
    return "ok" if not broken else "; ".join(broken)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", type=Path, required=True)
    parser.add_argument("--shared", type=Path, required=True)
    parser.add_argument("--output", type=Path)
    parser.add_argument("pipelines", nargs="*", type=Path)
    args = parser.parse_args()
    binary = args.build / "bin" / "npu-pipeline"
    pipelines = [REPO / "configs" / "reference" / "C5-cascade.yaml",
                 REPO / "configs" / "reference" / "C5-dp.yaml"] + args.pipelines
    models = sorted((args.shared / "models").glob("*.tflite"))
    lines = []
    for pipeline in pipelines:
        lines += [f"### {pipeline.name}", "",
                  "| model | at the pipeline's limit | SRAM peak (KiB) | limit the error names (KiB) | "
                  "time of the failing run (s) | smallest SRAM that fits (KiB) | search runs | spot check |",
                  "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |"]
        fitting = 0
        for model in models:
            at_limit, wall = compile_at(binary, pipeline, model, None)
            named = None if at_limit.ok else named_limit(at_limit.error)
            smallest, runs, _, note = smallest_fitting(binary, pipeline, model)
            check = spot_check(binary, pipeline, model, smallest) if smallest and smallest > KIB else "-"
            if at_limit.ok and smallest and at_limit.sram_peak_bytes + KIB <= smallest:
                # A schedule made for the larger limit is smaller than any made for a tight one.
                check += "; the peak at the pipeline's limit is below it"
            fitting += 1 if at_limit.ok else 0
            status = "fits" if at_limit.ok else ("does not fit" if named else f"fails: {at_limit.error[:80]}")
            named_text = (bracket(at_limit.error) or kib(named)) if named else "-"
            lines.append(f"| {model.stem} | {status} | {kib(at_limit.sram_peak_bytes) if at_limit.ok else '-'} | "
                         f"{named_text} | {'-' if at_limit.ok else f'{wall:.2f}'} | "
                         f"{note or kib(smallest)} | {runs} | {check} |")
            print(lines[-1], flush=True)
        lines += ["", f"{fitting} of {len(models)} networks fit the pipeline's limit.", ""]
    lib.write_markdown(lines, args.output)


if __name__ == "__main__":
    main()
