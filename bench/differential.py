#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Differential testing against real Vela: generates random networks with `npu-model-gen random`,
compiles each with Vela 3.10 (C1, C3, C5) and 2.1.1 (C1, C3, C4) and with npu-pipeline's reference
pipelines, and reports every difference in total cycles, SRAM peak and encoded/original weights, with
the first differing layer (3.10's per-layer CSV, or 2.1.1's pass breakdown, against ours).

Vela is an oracle beside the project, never part of it (see shared/tools/vela-oracle.sh): this script
is run by hand, never by tests or CI. Vela's results are cached in the work directory, so a second run
only compiles with npu-pipeline.

usage: bench/differential.py --build BUILD_DIR --vela310 PATH --vela21 PATH [--count 500] [--seed 1]
                             [--work DIR] [--output report.md] [--configs 310:C1,310:C3,...]
                             [--operators 4-24] [--jobs 2]
"""

import argparse
import concurrent.futures
import csv
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))
import parity_lib as lib  # noqa: E402

VELA_CONFIGS = {
    "C1": ["--accelerator-config", "ethos-u55-128", "--system-config", "Ethos_U55_High_End_Embedded",
           "--memory-mode", "Shared_Sram"],
    "C3": ["--accelerator-config", "ethos-u65-256", "--system-config", "Ethos_U65_High_End",
           "--memory-mode", "Dedicated_Sram"],
    "C4": ["--accelerator-config", "ethos-u55-64", "--system-config", "Ethos_U55_Deep_Embedded",
           "--memory-mode", "Shared_Sram"],
    "C5": ["--accelerator-config", "ethos-u55-128", "--system-config", "Ethos_U55_High_End_Embedded",
           "--memory-mode", "Shared_Sram", "--arena-cache-size", "524288"],
}
DEFAULT_CONFIGS = "310:C1,310:C3,310:C5,21:C1,21:C3,21:C4"
# Figures compared: (name, summary column, scale); SRAM is printed in KiB.
FIGURES = [("cycles", "cycles_total", 1.0), ("sram", "sram_memory_used", 1024.0),
           ("encoded", "total_npu_encoded_weights", 1.0), ("original", "total_original_weights", 1.0)]


def vela_command(release: str, binary: str, config: str, model: Path, out: Path) -> List[str]:
    if release == "310":
        return [binary, "--config", "Arm/vela.ini", "--recursion-limit", "10000", "--optimise", "Performance",
                "--verbose-performance", "--output-dir", str(out)] + VELA_CONFIGS[config] + [str(model)]
    ini = Path(binary).resolve().parent.parent / "vela21" / "vela.ini"
    return [binary, "--config", str(ini), "--output-dir", str(out)] + VELA_CONFIGS[config] + [str(model)]


def read_csv_rows(folder: Path, pattern: str) -> List[Dict[str, str]]:
    files = sorted(folder.glob(pattern))
    if not files:
        return []
    with open(files[0], newline="") as handle:
        return list(csv.DictReader(handle))


def run_vela(release: str, binary: str, config: str, model: Path, work: Path) -> dict:
    """Vela's summary and per-layer rows, cached as JSON beside the model."""
    cache = work / f"{model.stem}.vela{release}.{config}.json"
    if cache.exists():
        return json.loads(cache.read_text())
    with tempfile.TemporaryDirectory(prefix="vela-") as out:
        command = vela_command(release, binary, config, model, Path(out))
        process = subprocess.run(command, capture_output=True, text=True, cwd=out, timeout=1800)
        summary = read_csv_rows(Path(out), "*_summary_*.csv")
        result = {"command": " ".join(command[1:]).replace(out, "OUT"), "ok": bool(summary),
                  "log": (process.stdout + process.stderr)[-4000:],
                  "summary": summary[0] if summary else {},
                  "layers": read_csv_rows(Path(out), "*_per-layer.csv"),
                  "passes": read_csv_rows(Path(out), "*_pass-breakdown_*.csv")}  # 2.1.1's per pass
    cache.write_text(json.dumps(result))
    return result


def run_ours(build: Path, release: str, config: str, model: Path, extra: List[str] = ()) -> dict:
    pipeline = lib.REPO / "configs" / "reference" / (f"{config}-cascade.yaml" if release == "310"
                                                     else f"{config}-dp-vela2.yaml")
    with tempfile.TemporaryDirectory(prefix="npu-diff-") as out:
        command = [str(build / "bin" / "npu-pipeline"), "run", str(pipeline), str(model), "-o", out, "--quiet",
                   "--set", "report.formats=csv"]
        for setting in extra:  # --ours-set, e.g. lowering.vela_release=3.10 to measure the other lowering
            command += ["--set", setting]
        if release == "310":  # Vela 3.10 keeps a schedule over its SRAM target and warns
            command += ["--set", "accelerator.on_sram_overflow=warn"]
        process = subprocess.run(command, capture_output=True, text=True, timeout=1800)
        summary = read_csv_rows(Path(out), "*_summary_*.csv")
        return {"ok": process.returncode == 0 and bool(summary), "error": process.stderr.strip()[:300],
                "summary": summary[0] if summary else {}, "layers": read_csv_rows(Path(out), "*_per-layer.csv")}


def first_differing_layer(vela: List[dict], ours: List[dict]) -> str:
    vela = [row for row in vela if row.get("Name") != "Name"]  # 3.10 repeats its header per NPU subgraph
    for index, (theirs, mine) in enumerate(zip(vela, ours)):
        for column in ("NNG Operator", "Op Cycles", "SRAM Usage"):
            if theirs.get(column) != mine.get(column):
                return (f"layer {index} {theirs.get('NNG Operator')} '{theirs.get('Name', '')[:40]}': "
                        f"{column} {mine.get(column)} vs Vela {theirs.get(column)}")
    if len(vela) != len(ours):
        return f"{len(ours)} layers vs Vela {len(vela)}"
    return ""


def first_differing_pass(vela: List[dict], ours: List[dict]) -> str:
    """Vela 2.1.1's pass-breakdown against our layers, by name (2.1.1 rounds each pass up to a whole cycle;
    a pass it runs on the CPU has no layer of ours)."""
    layers = {row.get("Name"): row for row in ours}
    for index, theirs in enumerate(vela):
        name = theirs.get("name", "")
        mine = layers.get(name)
        if mine is None:
            if theirs.get("placement") == "Npu":
                return f"pass {index} {theirs.get('operators')} '{name[:40]}': no layer of that name"
            continue
        ours_cycles = lib.as_float(mine.get("Op Cycles")) or 0.0
        theirs_cycles = lib.as_float(theirs.get("cycles_total")) or 0.0
        if abs(ours_cycles - theirs_cycles) >= 1.0:
            return (f"pass {index} {theirs.get('operators')} '{name[:40]}': cycles {ours_cycles:.1f} vs Vela "
                    f"{theirs_cycles:.0f} (NPU {mine.get('NPU')} vs {theirs.get('cycles_npu')})")
    return ""


def classify_21(vela: List[dict], ours: List[dict], figures: dict) -> str:
    """The class of a difference from Vela 2.1.1: the first cause met in pass order. Our per-layer rows
    hold NPU passes only; our CPU passes' cycles are our total less the sum of our layers."""
    layers = {row.get("Name"): row for row in ours}
    for theirs in vela:
        name, operators = theirs.get("name", ""), theirs.get("operators", "")
        mine = layers.get(name)
        if theirs.get("placement") == "Cpu":
            if mine is not None:  # an operation 2.1.1 runs on the CPU and we on the NPU
                return f"lowering: 2.1.1 runs {operators.split()[-1]} on the CPU"
            continue
        if mine is None and theirs.get("placement") == "Npu":  # MemoryOnly passes cost nothing
            return f"lowering: 2.1.1 lowers to {operators} (no such operation of ours)"
    if sorted(row.get("Name", "") for row in ours) != sorted(t.get("name", "") for t in vela
                                                           if t.get("placement") == "Npu"):
        return "lowering: we have NPU operations 2.1.1 has not"
    for theirs in vela:
        mine = layers.get(theirs.get("name", ""))
        if mine is None or theirs.get("placement") != "Npu":
            continue
        op = theirs.get("operators", "").split()[-1]
        npu_ours, npu_theirs = lib.as_float(mine.get("NPU")) or 0.0, lib.as_float(theirs.get("cycles_npu")) or 0.0
        total_ours = lib.as_float(mine.get("Op Cycles")) or 0.0
        total_theirs = lib.as_float(theirs.get("cycles_total")) or 0.0
        if abs(total_ours - total_theirs) < 1.0:
            continue  # an NPU difference under a memory bound changes nothing
        if abs(npu_ours - npu_theirs) >= 1.0:
            return f"NPU cycles of a {op} pass"
        return f"memory-access cycles of a {op} pass"
    if "cycles" in figures and round(figures["cycles"][0]) != round(figures["cycles"][1]):
        cpu_theirs = sum(lib.as_float(t.get("cycles_total")) or 0.0 for t in vela if t.get("placement") == "Cpu")
        cpu_ours = figures["cycles"][0] - sum(lib.as_float(row.get("Op Cycles")) or 0.0 for row in ours)
        if abs(cpu_ours - cpu_theirs) >= 1.0 + sum(1 for t in vela if t.get("placement") == "Cpu"):
            kinds = sorted({t.get("operators", "").split()[-1] for t in vela if t.get("placement") == "Cpu"})
            return f"CPU passes' memory traffic ({' '.join(kinds)})"
        return "total cycles only (passes equal within a cycle)"
    return "SRAM peak"


def classify_310(vela: List[dict], ours: List[dict], figures: dict) -> str:
    vela = [row for row in vela if row.get("Name") != "Name"]
    if len(vela) != len(ours) or any(a.get("NNG Operator") != b.get("NNG Operator") for a, b in zip(vela, ours)):
        return "operations differ (lowering or subgraph cut)"
    for theirs, mine in zip(vela, ours):
        if theirs.get("Op Cycles") != mine.get("Op Cycles"):
            return f"cycles of a {theirs.get('NNG Operator')}"
    if "sram" in figures and round(figures["sram"][0]) != round(figures["sram"][1]):
        return "SRAM peak (allocation)"
    return "weights"


def compare(release: str, vela: dict, ours: dict) -> dict:
    """Per figure (ours, Vela) and whether everything matched."""
    if not vela["ok"]:
        return {"status": "vela-failed", "detail": vela["log"].strip().splitlines()[-1:] or [""]}
    if not ours["ok"]:
        return {"status": "ours-failed", "detail": [ours["error"]]}
    figures = {}
    exact = True
    for name, column, scale in FIGURES:
        if release == "21" and name in ("encoded", "original"):
            continue  # 2.1.1's summary has neither
        theirs = lib.as_float(vela["summary"].get(column))
        mine = lib.as_float(ours["summary"].get(column))
        if theirs is None or mine is None:
            continue
        figures[name] = (mine * scale, theirs * scale)
        exact = exact and round(mine * scale) == round(theirs * scale)
    if exact:
        detail, kind = [], ""
    elif release == "310":
        detail = [first_differing_layer(vela["layers"], ours["layers"])]
        kind = classify_310(vela["layers"], ours["layers"], figures)
    else:
        detail = [first_differing_pass(vela.get("passes", []), ours["layers"])]
        kind = classify_21(vela.get("passes", []), ours["layers"], figures)
    return {"status": "exact" if exact else "differs", "figures": figures, "detail": detail, "class": kind}


def generate(build: Path, seed: int, operators: int, work: Path) -> Path:
    model = work / f"random_{seed}.tflite"
    if not model.exists():
        subprocess.run([str(build / "bin" / "npu-model-gen"), "random", "--seed", str(seed), "--operators",
                        str(operators), "-o", str(model)], check=True)
    return model


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", type=Path, required=True)
    parser.add_argument("--vela310", default="/work/oracle/bin/vela310")
    parser.add_argument("--vela21", default="/work/oracle/bin/vela21")
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--operators", default="4-24", help="layers drawn per network: N or LOW-HIGH (by seed)")
    parser.add_argument("--configs", default=DEFAULT_CONFIGS)
    parser.add_argument("--work", type=Path, default=Path("differential-work"))
    parser.add_argument("--output", type=Path)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--ours-set", action="append", default=[], metavar="KEY=VALUE",
                        help="extra --set for npu-pipeline run, e.g. lowering.vela_release=3.10 (repeatable)")
    parser.add_argument("--cached-only", action="store_true",
                        help="compare only where Vela's result is already cached (e.g. by bench/vela_batch.py)")
    parser.add_argument("--render-only", action="store_true",
                        help="only write the report again from the work folder's results.json")
    parser.add_argument("--vela-only", action="store_true",
                        help="only fill the cache with Vela's results (resumable; compare later)")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    low, _, high = args.operators.partition("-")
    low, high = int(low), int(high or low)
    configs = [tuple(item.split(":")) for item in args.configs.split(",")]

    def one(seed: int) -> dict:
        model = generate(args.build, seed, low + seed % (high - low + 1), args.work)
        row = {"seed": seed, "model": model.name}
        for release, config in configs:
            binary = args.vela310 if release == "310" else args.vela21
            if args.cached_only and not (args.work / f"{model.stem}.vela{release}.{config}.json").exists():
                row[f"{release}:{config}"] = {"status": "pending"}
                continue
            vela = run_vela(release, binary, config, model, args.work)
            if args.vela_only:
                row[f"{release}:{config}"] = {"status": "vela-ok" if vela["ok"] else "vela-failed"}
                continue
            row[f"{release}:{config}"] = compare(release, vela, run_ours(args.build, release, config, model, args.ours_set))
        print(f"seed {seed}: " + " ".join(f"{k}={v['status']}" for k, v in row.items() if isinstance(v, dict)),
              file=sys.stderr)
        return row

    if args.render_only:
        report = render(json.loads((args.work / "results.json").read_text()), configs, args)
        if args.output:
            args.output.write_text(report)
        else:
            print(report)
        return 0
    seeds = range(args.seed, args.seed + args.count)
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        rows = list(pool.map(one, seeds))
    if args.vela_only:
        return 0
    (args.work / "results.json").write_text(json.dumps(rows, indent=1))
    report = render(rows, configs, args)
    if args.output:
        args.output.write_text(report)
    else:
        print(report)
    return 0


def alike(rows: List[dict], key: str) -> str:
    """Exact matches among the compared networks whose first difference (if any) is not a lowering one."""
    judged = [row[key] for row in rows if row[key]["status"] in ("exact", "differs", "ours-failed")
              and not row[key].get("class", "").startswith(("lowering", "operations differ"))]
    exact = sum(1 for result in judged if result["status"] == "exact")
    return f"{exact}/{len(judged)}" + (f" ({exact / len(judged) * 100:.1f}%)" if judged else "")


def render(rows: List[dict], configs, args) -> str:
    lines = ["# Differential testing against Vela", "",
             f"`bench/differential.py --count {args.count} --seed {args.seed} --operators {args.operators}`: "
             "random networks from `npu-model-gen random`, each compiled by Vela and by npu-pipeline's "
             "reference pipeline of the same configuration (3.10: `*-cascade.yaml`, 2.1.1: `*-dp-vela2.yaml`).",
             "", "| release:config | compared | exact | differs | Vela failed | ours failed | not run yet "
             "| exact where lowered alike |", "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for release, config in configs:
        key = f"{release}:{config}"
        statuses = [row[key]["status"] for row in rows]
        compared = sum(1 for s in statuses if s in ("exact", "differs"))
        exact = statuses.count("exact")
        judged = compared + statuses.count("ours-failed")  # a compile of ours that fails is no match
        share = f" ({exact / judged * 100:.1f}%)" if judged else ""
        lines.append(f"| {key} | {compared} | {exact}{share} | {statuses.count('differs')} | "
                     f"{statuses.count('vela-failed')} | {statuses.count('ours-failed')} | "
                     f"{statuses.count('pending')} | {alike(rows, key)} |")
    lines += ["", "## Classes of difference (first cause per network)", "", "| release:config | class | networks |",
              "| --- | --- | --- |"]
    for release, config in configs:
        key = f"{release}:{config}"
        counts: Dict[str, int] = {}
        for row in rows:
            result = row[key]
            if result["status"] == "differs":
                counts[result.get("class", "")] = counts.get(result.get("class", ""), 0) + 1
            elif result["status"] == "ours-failed":
                counts["ours failed"] = counts.get("ours failed", 0) + 1
        for kind, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
            lines.append(f"| {key} | {kind} | {count} |")
    lines += ["", "## Differences", "", "| network | release:config | figures (ours / Vela) | first difference |",
              "| --- | --- | --- | --- |"]
    for row in rows:
        for release, config in configs:
            result = row[f"{release}:{config}"]
            if result["status"] in ("exact", "vela-failed", "pending"):
                continue
            figures = ", ".join(f"{name} {ours:.0f} / {theirs:.0f}" for name, (ours, theirs)
                                in result.get("figures", {}).items() if round(ours) != round(theirs))
            detail = "; ".join(d for d in result.get("detail", []) if d)
            kind = result.get("class", "")
            lines.append(f"| {row['model']} | {release}:{config} | {figures or result['status']} | "
                         f"{kind + ': ' if kind else ''}{detail[:160]} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
