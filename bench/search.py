#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Search scheduler (issue 15) against Vela 3.10's cascade scheduler: compiles every model of
shared/models and a set of generated networks with configs/search/C{1,3,5}-search.yaml and
configs/reference/C{1,3,5}-cascade.yaml, and writes, per configuration, cycles and SRAM peak of both,
the search's gain, and the whole-process compile time of both (wall clock, one run after the other on
the same machine). Prints a Markdown table; --output replaces the "Search scheduler (issue 15)"
section of that file (docs/ab.md).

usage: bench/search.py --build BUILD_DIR [--shared SHARED_DIR] [--configs C1,C3,C5] [--output docs/ab.md]
                       [--generated N] [--threads T]
"""

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Optional

REPO = Path(__file__).resolve().parent.parent
SECTION = "## Search scheduler (issue 15)"


def generated_models(build: Path, folder: Path, count: int) -> List[Path]:
    """MobileNets at small resolutions and random networks of npu-model-gen (deterministic)."""
    generator = build / "bin" / "npu-model-gen"
    specs = [("mobilenet_v1_025_96", ["mobilenet-v1", "--alpha", "0.25", "--resolution", "96"]),
             ("mobilenet_v2_035_96", ["mobilenet-v2", "--alpha", "0.35", "--resolution", "96"]),
             ("mobilenet_v2_100_160", ["mobilenet-v2", "--alpha", "1.0", "--resolution", "160"])]
    specs += [(f"random_{seed}", ["random", "--seed", str(seed), "--operators", "16", "--channels", "48"])
              for seed in range(1, count + 1)]
    models = []
    for name, arguments in specs:
        path = folder / f"gen_{name}.tflite"
        subprocess.run([str(generator)] + arguments + ["-o", str(path)], check=True, capture_output=True)
        models.append(path)
    return models


def run(binary: Path, config: Path, model: Path, out: Path, threads: Optional[int]) -> dict:
    """One whole-process compilation; its cycles, SRAM peak and wall-clock seconds (or its failure)."""
    command = [str(binary), "run", str(config), str(model), "-o", str(out), "--set", "report.formats=json"]
    if threads:
        command += ["--threads", str(threads)]
    start = time.perf_counter()
    process = subprocess.run(command, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    if process.returncode != 0:
        lines = process.stderr.strip().splitlines()
        return {"failure": lines[0] if lines else f"exit {process.returncode}", "seconds": seconds}
    report = json.loads((out / f"{model.stem}.json").read_text())
    totals = report["totals"]
    return {"cycles": float(totals["cycles"]["total"]), "sram": int(totals["memory_used_bytes"].get("sram", 0)),
            "seconds": seconds}


def percent(new: float, old: float) -> str:
    return f"{100.0 * (new - old) / old:+.1f}%" if old else "-"


def section(config: str, models: List[Path], results: Dict[str, Dict[str, dict]], lines: List[str]) -> None:
    lines += [f"### {config}: search vs cascade (Vela 3.10)", "",
              "| model | cycles cascade | cycles search | search vs cascade | SRAM peak cascade | SRAM peak search "
              "| compile s cascade | compile s search |",
              "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    gains, worse, failures, time_ratios = [], [], [], []
    total_time = {"cascade": 0.0, "search": 0.0}
    for model in models:
        cascade, found = results[model.name]["cascade"], results[model.name]["search"]
        total_time["cascade"] += cascade["seconds"]
        total_time["search"] += found["seconds"]
        if "failure" in cascade or "failure" in found:
            failures.append(f"- {model.stem}: cascade: {cascade.get('failure', 'ok')}; "
                            f"search: {found.get('failure', 'ok')}")
            continue
        gain = (cascade["cycles"] - found["cycles"]) / cascade["cycles"] if cascade["cycles"] else 0.0
        gains.append(gain)
        time_ratios.append(found["seconds"] / cascade["seconds"])
        if found["cycles"] > cascade["cycles"]:
            worse.append(model.stem)
        lines.append(f"| {model.stem} | {cascade['cycles']:.0f} | {found['cycles']:.0f} | "
                     f"{percent(found['cycles'], cascade['cycles'])} | {cascade['sram']} | {found['sram']} | "
                     f"{cascade['seconds']:.2f} | {found['seconds']:.2f} |")
    lines.append("")
    if gains:
        improved = sum(1 for g in gains if g > 0)
        lines.append(f"{len(gains)} networks: search faster on {improved}, slower on {len(worse)}"
                     f"{' (' + ', '.join(worse) + ')' if worse else ''}; median cycle reduction "
                     f"{100 * statistics.median(gains):.1f}%, mean {100 * statistics.mean(gains):.1f}%, "
                     f"best {100 * max(gains):.1f}%. Compile time search/cascade: median "
                     f"{statistics.median(time_ratios):.2f}x per network, {total_time['search']:.1f} s / "
                     f"{total_time['cascade']:.1f} s = {total_time['search'] / total_time['cascade']:.2f}x in total.")
        by_origin = {"shared": [], "generated": []}
        for model in models:
            cascade, found = results[model.name]["cascade"], results[model.name]["search"]
            if "failure" not in cascade and "failure" not in found and cascade["cycles"]:
                origin = "generated" if model.stem.startswith("gen_") else "shared"
                by_origin[origin].append((cascade["cycles"] - found["cycles"]) / cascade["cycles"])
        lines.append("")
        lines.append("Median cycle reduction: " + ", ".join(
            f"{100 * statistics.median(values):.1f}% over the {len(values)} {origin} networks"
            for origin, values in by_origin.items() if values) + ".")
        lines.append("")
    if failures:
        lines += ["", "Not compiled:"] + failures
    lines.append("")


READING = Path(__file__).resolve().parent / "search_reading.md"


def write(text: str, output: Optional[Path]) -> None:
    if READING.exists():  # the reading of the figures, kept by hand beside the script
        text = text.rstrip() + "\n\n" + READING.read_text().strip() + "\n"
    print(text)
    if output:
        existing = output.read_text() if output.exists() else ""
        head, _, rest = existing.partition(SECTION)
        # Keep the sections after this one ("## " headings other than this section's "### ").
        tail = rest[rest.find("\n## "):] if "\n## " in rest else ""
        output.write_text((head.rstrip() + "\n\n" if head.strip() else "") + text.rstrip() + "\n" + tail)


def replay(args: argparse.Namespace) -> None:
    """The tables of an earlier run, from its progress lines "<config> <model>: {results}"."""
    import ast
    runs: Dict[str, Dict[str, Dict[str, dict]]] = {}
    order: Dict[str, List[Path]] = {}
    for line in args.replay.read_text().splitlines():
        config, _, rest = line.partition(" ")
        stem, _, figures = rest.partition(": ")
        runs.setdefault(config, {})[stem + ".tflite"] = ast.literal_eval(figures)
        order.setdefault(config, []).append(Path(stem + ".tflite"))
    first = next(iter(order.values()))
    generated = sum(1 for model in first if model.stem.startswith("gen_"))
    lines = [SECTION, "", f"`bench/search.py --configs {','.join(runs)} --generated {generated - 3}`: {len(first)} "
             f"networks ({len(first) - generated} shared, {generated} generated by npu-model-gen); cycles are the "
             "report's total estimate, SRAM peak the report's SRAM used (bytes), compile time the whole "
             "`npu-pipeline run` process (wall clock).", ""]
    for config, results in runs.items():
        section(config, order[config], results, lines)
    write("\n".join(lines), args.output)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", type=Path, required=True)
    parser.add_argument("--shared", type=Path, default=None, help="folder with models/ (e.g. /work/shared)")
    parser.add_argument("--configs", default="C1,C3,C5")
    parser.add_argument("--generated", type=int, default=8, help="random networks to generate")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--output", type=Path, default=None)
    parser.add_argument("--replay", type=Path, default=None,
                        help="rebuild the tables from the progress lines (stderr) of an earlier run")
    args = parser.parse_args()
    if args.replay:
        replay(args)
        return
    binary = args.build / "bin" / "npu-pipeline"
    with tempfile.TemporaryDirectory() as scratch:
        scratch_path = Path(scratch)
        models = sorted((args.shared / "models").glob("*.tflite")) if args.shared else []
        models += generated_models(args.build, scratch_path, args.generated)
        lines = [SECTION, "",
                 f"`bench/search.py --configs {args.configs} --generated {args.generated}`: "
                 f"{len(models)} networks ({len(models) - args.generated - 3} shared, {args.generated + 3} generated "
                 "by npu-model-gen); cycles are the report's total estimate, SRAM peak the report's SRAM used "
                 "(bytes), compile time the whole `npu-pipeline run` process (wall clock).", ""]
        for config in args.configs.split(","):
            results: Dict[str, Dict[str, dict]] = {}
            for model in models:
                out = scratch_path / "out"
                results[model.name] = {
                    "cascade": run(binary, REPO / "configs" / "reference" / f"{config}-cascade.yaml", model, out,
                                   args.threads),
                    "search": run(binary, REPO / "configs" / "search" / f"{config}-search.yaml", model, out,
                                  args.threads)}
                print(f"{config} {model.stem}: {results[model.name]}", file=sys.stderr)
            section(config, models, results, lines)
    write("\n".join(lines), args.output)


if __name__ == "__main__":
    main()
