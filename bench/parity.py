#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Parity with Vela: compiles every model of shared/models with each reference configuration and
prints, per model and config, our total cycles, SRAM peak, off-chip read bytes and encoded weight bytes
beside Vela's (shared/reference/INDEX.tsv) with the relative error, plus median and max, and the share
of scheduling decisions that agree with Vela's schedule.txt. Writes the result as Markdown.

usage: bench/parity.py --build BUILD_DIR --shared SHARED_DIR [--output docs/parity.md]
                       [--configs C1,C2,C3,C4,C5] [--dp] [--models name,...]
"""

import argparse
import statistics
import sys
from pathlib import Path
from typing import Dict, List

sys.path.insert(0, str(Path(__file__).resolve().parent))
import parity_codegen  # noqa: E402
import parity_lib as lib  # noqa: E402

CASCADE_CONFIGS = ["C1", "C2", "C3", "C4", "C5"]
DP_CONFIGS = ["C1", "C3", "C4"]
SCHEDULE_CONFIGS = {"C1", "C3", "C5"}


def cascade_section(binary, shared, index, configs, models, lines: List[str]) -> Dict[str, float]:
    """Totals per model and config against Vela 3.10; returns our wall times in C1 for the timing table."""
    wall_c1 = {}
    all_errors = {"cycles": [], "sram": [], "offchip": [], "encoded": []}
    agreement_totals: Dict[str, list] = {}
    lines += ["## Cascade scheduler against Vela 3.10", "",
              "Relative error = (ours - Vela) / Vela. Models where Vela failed are listed without error.", ""]
    for config in configs:
        pipeline = lib.REPO / "configs" / "reference" / f"{config}-cascade.yaml"
        lines += [f"### {config}", "",
                  "| model | cycles (ours / Vela) | err | SRAM peak (ours / Vela) | err | off-chip read | err "
                  "| encoded weights | err |",
                  "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
        errors = {"cycles": [], "sram": [], "offchip": [], "encoded": []}
        for model in models:
            row = index.get(("vela310", config, model.stem))
            result = lib.run_pipeline(binary, pipeline, model)
            print(f"{config} {model.stem}: {'ok' if result.ok else result.error}", file=sys.stderr)
            if config == "C1":
                wall_c1[model.stem] = lib.fastest_wall(binary, pipeline, model, result)
            if not result.ok:
                lines.append(f"| {model.stem} | **ours failed**: {result.error} | | | | | | | |")
                continue
            if row is None or row["status"] != "ok":
                reason = row["error"][:60] if row else "no reference"
                lines.append(f"| {model.stem} | {result.total_cycles:.0f} / Vela {row['status'] if row else '-'} "
                             f"({reason}) | | {result.sram_peak_bytes:.0f} / - | | | | | |")
                continue
            pairs = [("cycles", result.total_cycles, "total_cycles"),
                     ("sram", result.sram_peak_bytes, "sram_peak_bytes"),
                     ("offchip", result.offchip_read_bytes, "offchip_read_bytes"),
                     ("encoded", result.encoded_weight_bytes, "encoded_weights_bytes")]
            cells = []
            for key, ours, column in pairs:
                theirs = lib.as_float(row[column])
                error = lib.relative_error(ours, theirs)
                errors[key].append(error)
                cells += [f"{ours:.0f} / {theirs:.0f}" if theirs is not None else f"{ours:.0f} / -",
                          lib.percent(error)]
            lines.append(f"| {model.stem} | " + " | ".join(cells) + " |")
            schedule = shared / "reference" / "vela310" / config / model.stem / "schedule.txt"
            if config in SCHEDULE_CONFIGS and schedule.exists():
                agreement = lib.schedule_agreement(lib.parse_vela310_schedule(schedule),
                                                   lib.our_operations(result.report))
                for decision, (agree, total) in agreement.items():
                    totals = agreement_totals.setdefault(f"{config} {decision}", [0, 0])
                    totals[0] += agree
                    totals[1] += total
        lines += ["", f"{config}: cycles {lib.error_stats(errors['cycles'])}; SRAM peak "
                      f"{lib.error_stats(errors['sram'])}; off-chip read {lib.error_stats(errors['offchip'])}; "
                      f"encoded weights {lib.error_stats(errors['encoded'])}", ""]
        for key in all_errors:
            all_errors[key] += errors[key]
    lines += ["### All configurations", "",
              f"- total cycles: {lib.error_stats(all_errors['cycles'])}",
              f"- SRAM peak: {lib.error_stats(all_errors['sram'])}",
              f"- off-chip read bytes: {lib.error_stats(all_errors['offchip'])}",
              f"- encoded weight bytes: {lib.error_stats(all_errors['encoded'])}", ""]
    if agreement_totals:
        lines += ["### Scheduling decisions that agree with Vela's schedule.txt", "",
                  "| config | decision | agree | of | share |", "| --- | --- | --- | --- | --- |"]
        for key, (agree, total) in sorted(agreement_totals.items()):
            config, decision = key.split(" ", 1)
            share = f"{agree / total * 100:.1f}%" if total else "n/a"
            lines.append(f"| {config} | {decision} | {agree} | {total} | {share} |")
        lines.append("")
    return wall_c1


def exhaustive_section(binary, models, lines: List[str]) -> None:
    """The cascade scheduler's wider stripe search against Vela's, under the same SRAM limits."""
    lines += ["## Cascade scheduler: exhaustive stripe search vs Vela's", "",
              "`search: exhaustive` evaluates every stripe height of every cascade in parallel and keeps the "
              "whole schedule only when it is faster than Vela's search, under the same limit (C3, C5).", ""]
    for config in ("C3", "C5"):
        pipeline = lib.REPO / "configs" / "reference" / f"{config}-cascade.yaml"
        faster = []
        compared = 0
        for model in models:
            vela = lib.run_pipeline(binary, pipeline, model)
            wide = lib.run_pipeline(binary, pipeline, model, ["--set", "scheduler.search=exhaustive"])
            if not (vela.ok and wide.ok):
                continue
            compared += 1
            if wide.total_cycles < vela.total_cycles:
                faster.append((model.stem, vela.total_cycles, wide.total_cycles, wide.sram_peak_bytes,
                               vela.sram_peak_bytes))
        lines.append(f"- {config}: faster on {len(faster)} of {compared} models")
        for name, before, after, sram, vela_sram in faster:
            lines.append(f"  - {name}: {before:.0f} -> {after:.0f} cycles "
                         f"({lib.percent(lib.relative_error(after, before))}), SRAM peak {vela_sram:.0f} -> {sram:.0f}")
    lines.append("")


def dp_section(binary, shared, index, models, lines: List[str]) -> Dict[str, float]:
    """DP scheduler with the 2020 cost model against Vela 2.1.1; returns C1 wall times."""
    wall_c1 = {}
    lines += ["## DP scheduler (2020 cost model) against Vela 2.1.1", "",
              "Every model is judged: the `*-dp-vela2` pipelines lower with `ethosu_lowering`'s "
              "`vela_release: \"2.1\"` (Vela 2.1.1's operator set and rewrites, see \"Vela 2.1.1's lowering\" "
              "below). The last column says whether Vela 3.10 lowered the model like 2.1.1 (same NPU pass count "
              "and CPU operators); cycles are 2.1.1's summary total (NPU passes and the memory traffic of CPU "
              "passes).", ""]
    for config in DP_CONFIGS:
        pipeline = lib.REPO / "configs" / "reference" / f"{config}-dp-vela2.yaml"
        lines += [f"### {config}", "", "| model | cycles (ours / Vela 2.1) | err | SRAM peak (ours / Vela 2.1) | err "
                  "| block configs agree | strategies agree | lowered alike by 3.10 |",
                  "| --- | --- | --- | --- | --- | --- | --- | --- |"]
        cycle_errors, sram_errors = [], []
        differing = []
        agree_blocks = agree_strategy = compared = 0
        for model in models:
            row21 = index.get(("vela21", config, model.stem))
            row310 = index.get(("vela310", config, model.stem))
            if row21 is None or row21["status"] != "ok":
                continue
            result = lib.run_pipeline(binary, pipeline, model)
            print(f"{config}-dp {model.stem}: {'ok' if result.ok else result.error}", file=sys.stderr)
            if config == "C1":
                wall_c1[model.stem] = lib.fastest_wall(binary, pipeline, model, result)
            # Same pass count is not enough: Vela 2.1.1 may run an operator on the CPU that 3.10 lowers to
            # an NPU pass (e.g. an average pool with strides over 3), which splits the NPU subgraph and adds
            # the CPU pass's memory traffic to Vela 2.1.1's total.
            alike = "yes"
            if row310 is not None and (row310["npu_layers"] != row21["npu_layers"]
                                       or row310["cpu_ops"] != row21["cpu_ops"]):
                alike = (f"no (2.1.1: {row21['npu_layers']} NPU passes, {row21['cpu_ops']} CPU ops; "
                         f"3.10: {row310['npu_layers']}, {row310['cpu_ops']})")
            if not result.ok:
                lines.append(f"| {model.stem} | **ours failed**: {result.error} | | | | | | {alike} |")
                continue
            if alike != "yes":
                differing.append(abs(lib.relative_error(result.total_cycles, lib.as_float(row21["total_cycles"]))))
            cycles_error = lib.relative_error(result.total_cycles, lib.as_float(row21["total_cycles"]))
            sram_error = lib.relative_error(result.sram_peak_bytes, lib.as_float(row21["sram_peak_bytes"]))
            cycle_errors.append(cycles_error)
            sram_errors.append(sram_error)
            breakdown = list((shared / "reference" / "vela21" / config / model.stem).glob("*pass-breakdown*.csv"))
            blocks = strategies = total = 0
            if breakdown:
                vela_passes = lib.parse_vela21_passes(breakdown[0])
                ours = lib.our_operations(result.report)
                for name, vela_pass in vela_passes.items():
                    if name not in ours:
                        continue
                    total += 1
                    ours_block = ours[name]["block"]
                    blocks += int(vela_pass["block"] == ours_block)
                    strategies += int(vela_pass["strategy"] == ours[name]["strategy"])
            agree_blocks += blocks
            agree_strategy += strategies
            compared += total
            lines.append(f"| {model.stem} | {result.total_cycles:.0f} / {row21['total_cycles']} | "
                         f"{lib.percent(cycles_error)} | {result.sram_peak_bytes:.0f} / {row21['sram_peak_bytes']} | "
                         f"{lib.percent(sram_error)} | {blocks}/{total} | {strategies}/{total} | {alike} |")
        lines += ["", f"{config}: cycles {lib.error_stats(cycle_errors)}; SRAM peak {lib.error_stats(sram_errors)}; "
                      f"block configs agree {agree_blocks}/{compared}, strategies agree {agree_strategy}/{compared}"]
        if differing:
            lines += ["", f"Of these, {len(differing)} models Vela 3.10 lowers differently from 2.1.1: cycles within "
                          f"1% on {sum(e <= 0.01 for e in differing)}, within 10% on {sum(e <= 0.1 for e in differing)}."]
        lines.append("")
    return wall_c1


def timing_section(index, wall_cascade, wall_dp, lines: List[str]):
    lines += ["## Compile time (C1, whole process, this machine)", "",
              "| model | cascade (s) | Vela 3.10 (s) | speed-up | DP (s) | Vela 2.1.1 (s) | speed-up |",
              "| --- | --- | --- | --- | --- | --- | --- |"]
    ratios3, ratios2 = [], []
    for model, ours in sorted(wall_cascade.items()):
        vela3 = lib.as_float((index.get(("vela310", "C1", model)) or {}).get("wall_s"))
        vela2 = lib.as_float((index.get(("vela21", "C1", model)) or {}).get("wall_s"))
        dp = wall_dp.get(model)
        if vela3 and ours:
            ratios3.append(vela3 / ours)
        if vela2 and dp:
            ratios2.append(vela2 / dp)
        lines.append(f"| {model} | {ours:.3f} | {vela3 if vela3 is not None else '-'} | "
                     f"{(vela3 / ours) if vela3 and ours else 0:.0f}x | {f'{dp:.3f}' if dp is not None else '-'} | "
                     f"{vela2 if vela2 is not None else '-'} | "
                     f"{f'{vela2 / dp:.0f}x' if vela2 and dp else '-'} |")
    lines.append("")
    for label, ratios in (("cascade vs Vela 3.10", ratios3), ("DP vs Vela 2.1.1", ratios2)):
        if ratios:
            ratios.sort()
            lines.append(f"- {label}: median speed-up {statistics.median(ratios):.0f}x, smallest {ratios[0]:.0f}x, "
                         f"largest {ratios[-1]:.0f}x over {len(ratios)} models")
    lines += ["", f"Ours: the fastest of {lib.TIMING_RUNS} runs; each includes process start, reading, lowering, "
              "scheduling, allocation, evaluation and writing the reports. Vela's wall times are from the reference "
              "runs (another machine).", ""]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", type=Path, required=True, help="build directory with bin/npu-pipeline")
    parser.add_argument("--shared", type=Path, required=True, help="folder with models/ and reference/")
    parser.add_argument("--output", type=Path, help="write the Markdown here (default: stdout)")
    parser.add_argument("--configs", default=",".join(CASCADE_CONFIGS))
    parser.add_argument("--models", default="", help="comma-separated model names (default: all)")
    parser.add_argument("--dp", action="store_true", help="also the DP scheduler against Vela 2.1.1")
    args = parser.parse_args()

    binary = args.build / "bin" / "npu-pipeline"
    models = sorted((args.shared / "models").glob("*.tflite"))
    if args.models:
        wanted = set(args.models.split(","))
        models = [m for m in models if m.stem in wanted]
    index = lib.read_index(args.shared / "reference")
    lines = ["# Parity with Vela", "",
             "Generated by `bench/parity.py` (do not edit by hand). Each row compiles one model of "
             "`shared/models` with the configuration's pipeline in `configs/reference/`; Vela's figures come "
             "from `shared/reference/INDEX.tsv`.", ""]
    wall_cascade = cascade_section(binary, args.shared, index, args.configs.split(","), models, lines)
    if set(args.configs.split(",")) >= {"C3", "C5"}:
        exhaustive_section(binary, models, lines)
    wall_dp = dp_section(binary, args.shared, index, models, lines) if args.dp else {}
    if (args.shared / "reference" / "codegen" / "INDEX.tsv").exists():
        lines += parity_codegen.section(binary, args.shared, models)
    timing_section(index, wall_cascade, wall_dp, lines)
    lib.write_markdown(lines, args.output, Path(__file__).resolve().parent / "parity_notes.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
