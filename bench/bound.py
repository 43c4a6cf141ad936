#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Distance to the lower bound (issue 15): compiles every shared model with each pipeline (by default the
cascade scheduler in C1, C3 and C5; any other pipeline file may be given, e.g. a search scheduler's),
reads the JSON report's totals.estimate_to_bound_ratio and what bounds the network, and writes the median
and range per pipeline, with the per-model figures, as the section "Distance to the bound (issue 15)" of
docs/benchmarks.md (replaced when present).

usage: bench/bound.py --build BUILD_DIR --models SHARED_MODELS [--output docs/benchmarks.md]
                      [PIPELINE.yaml ...]
"""

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
HEADING = "## Distance to the bound (issue 15)"
DEFAULT_PIPELINES = [REPO / "configs" / "reference" / f"{config}-cascade.yaml" for config in ("C1", "C3", "C5")]


def compile_model(binary: Path, pipeline: Path, model: Path, out: Path):
    """Totals of the JSON report, or the first line of the error when the model does not compile."""
    command = [str(binary), "run", str(pipeline), str(model), "-o", str(out), "-q", "--set", "report.formats=json"]
    process = subprocess.run(command, capture_output=True, text=True, check=False)
    if process.returncode != 0:
        return None, (process.stderr.strip().splitlines() or ["exit code %d" % process.returncode])[0]
    report = json.loads(next(out.glob("*.json")).read_text())
    return report["totals"], None


def measure(binary: Path, pipeline: Path, models, work: Path):
    rows, failures = [], []
    for index, model in enumerate(models):
        totals, failure = compile_model(binary, pipeline, model, work / f"{pipeline.stem}-{index}")
        if failure:
            failures.append((model.stem, failure))
            continue
        rows.append({"model": model.stem, "cycles": totals["cycles"]["total"], "bound": totals["bound_cycles"],
                     "ratio": totals["estimate_to_bound_ratio"], "bound_by": totals["bound_by"]})
    return rows, failures


def section(results) -> str:
    lines = [HEADING, "",
             "`bench/bound.py` compiles every shared model and compares the estimated cycles with the lower bound "
             "of `docs/lower-bound.md` (the accelerator contract's `CostModel::bound`; for the network, the "
             "busiest resource's demand summed over the layers). A ratio of 1.00 would mean no schedule could "
             "do better on this hardware model. Models the CPU runs entirely have no bound and are left out of "
             "the median.", "",
             "| pipeline | models | median estimate / bound | range | bound by (models) |",
             "| --- | ---: | ---: | ---: | --- |"]
    for name, rows, _ in results:
        ratios = [row["ratio"] for row in rows if row["ratio"] > 0]
        counts = {}
        for row in (row for row in rows if row["ratio"] > 0):
            counts[row["bound_by"]] = counts.get(row["bound_by"], 0) + 1
        by = ", ".join(f"{key} {value}" for key, value in sorted(counts.items(), key=lambda item: (-item[1], item[0])))
        if ratios:
            lines.append(f"| {name} | {len(ratios)} | {statistics.median(ratios):.2f}x | "
                         f"{min(ratios):.2f}x - {max(ratios):.2f}x | {by} |")
        else:
            lines.append(f"| {name} | 0 | - | - | - |")
    for name, rows, failures in results:
        lines += ["", f"### {name}", "", "| model | estimate (cycles) | bound (cycles) | estimate / bound | bound by |",
                  "| --- | ---: | ---: | ---: | --- |"]
        for row in rows:
            if row["bound"] <= 0:
                lines.append(f"| {row['model']} | {row['cycles']:.0f} | - | - | no NPU operations |")
                continue
            lines.append(f"| {row['model']} | {row['cycles']:.0f} | {row['bound']:.0f} | {row['ratio']:.2f}x | "
                         f"{row['bound_by']} |")
        for model, failure in failures:
            lines.append(f"| {model} | not compiled: {failure} | | | |")
    return "\n".join(lines) + "\n"


def replace_section(document: str, text: str) -> str:
    start = document.find(HEADING)
    if start < 0:
        return document.rstrip("\n") + "\n\n" + text
    end = document.find("\n## ", start + len(HEADING))
    return document[:start] + text + (document[end:] if end >= 0 else "")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", type=Path, required=True)
    parser.add_argument("--models", type=Path, required=True)
    parser.add_argument("--output", type=Path, default=REPO / "docs" / "benchmarks.md")
    parser.add_argument("pipelines", type=Path, nargs="*", help="pipeline files (default: C1, C3, C5 cascade)")
    args = parser.parse_args()
    binary = args.build / "bin" / "npu-pipeline"
    models = sorted(args.models.glob("*.tflite"))
    if not models:
        sys.exit(f"no .tflite models in {args.models}")
    pipelines = args.pipelines or DEFAULT_PIPELINES
    results = []
    with tempfile.TemporaryDirectory() as work:
        for pipeline in pipelines:
            rows, failures = measure(binary, pipeline, models, Path(work))
            results.append((pipeline.stem, rows, failures))
            print(f"{pipeline.stem}: {len(rows)} compiled, {len(failures)} not", file=sys.stderr)
    text = section(results)
    print(text)
    args.output.write_text(replace_section(args.output.read_text(), text))


if __name__ == "__main__":
    main()
