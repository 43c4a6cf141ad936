#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Code generation against Vela 3.10: compiles every shared model with the C1, C3 and C5 cascade
pipelines (which end with the codegen stage), dumps our `_vela.tflite` with the shared dump tool and
compares it with Vela's output (shared/reference/codegen): command streams, flash, scratch sizes,
operator counts and the whole file. Prints a Markdown section; bench/parity.py includes it.

usage: bench/parity_codegen.py --build BUILD_DIR --shared SHARED_DIR [--output FILE] [--models a,b]
"""

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Optional

REPO = Path(__file__).resolve().parent.parent
CONFIGS = ["C1", "C3", "C5"]
COLUMNS = ["n_ethos_u_ops", "n_other_ops", "cmd_stream_bytes", "cmd_stream_sha256", "flash_bytes", "flash_sha256",
           "scratch_bytes", "scratch_fast_bytes"]


def read_codegen_index(shared: Path) -> Dict[tuple, dict]:
    lines = (shared / "reference" / "codegen" / "INDEX.tsv").read_text().splitlines()
    names = lines[0].split("\t")
    rows = {}
    for line in lines[1:]:
        values = line.split("\t")
        row = dict(zip(names, values + [""] * (len(names) - len(values))))
        rows[(row["config"], row["model"])] = row
    return rows


def compile_model(binary: Path, config: str, model: Path, out: Path) -> Optional[str]:
    """Runs the pipeline; returns the first line of the error, or None."""
    pipeline = REPO / "configs" / "reference" / f"{config}-cascade.yaml"
    process = subprocess.run([str(binary), "run", str(pipeline), str(model), "-o", str(out), "--quiet"],
                             capture_output=True, text=True)
    if process.returncode != 0:
        return (process.stderr.strip().splitlines() or [f"exit code {process.returncode}"])[0]
    return None


def summary_of(shared: Path, file: Path) -> Dict[str, str]:
    line = subprocess.run([sys.executable, str(shared / "tools" / "tflite_dump.py"), str(file), "--summary"],
                          capture_output=True, text=True, check=True).stdout.strip()
    return dict(zip(["model"] + COLUMNS, line.split("\t")))


def file_sha256(shared: Path, file: Path) -> str:
    dump = subprocess.run([sys.executable, str(shared / "tools" / "tflite_dump.py"), str(file)],
                          capture_output=True, text=True, check=True).stdout
    return json.loads(dump)["file"]["sha256"]


def compare_run(binary: Path, shared: Path, config: str, model: Path, row: dict) -> dict:
    reference = shared / "reference" / "codegen" / "vela310" / config / model.stem
    with tempfile.TemporaryDirectory(prefix="npu-codegen-parity-") as out:
        error = compile_model(binary, config, model, Path(out))
        vela_failed = row.get("status") != "ok"
        if error is not None or vela_failed:
            return {"error": error, "vela_failed": vela_failed, "vela_error": row.get("error", "")}
        ours_file = Path(out) / f"{model.stem}_vela.tflite"
        ours = summary_of(shared, ours_file)
        vela_dump = json.loads((reference / "dump.json").read_text())
        result = {"error": None, "vela_failed": False, "file_identical": file_sha256(shared, ours_file) ==
                  vela_dump["file"]["sha256"]}
        for column in COLUMNS:
            result[column] = (ours[column], row[column])
        return result


def section(binary: Path, shared: Path, models: List[Path]) -> List[str]:
    index = read_codegen_index(shared)
    lines = ["## Code generation against Vela 3.10", "",
             "Our `_vela.tflite` (the cascade pipelines end with `codegen: codegen_ethosu`) dumped with "
             "`shared/tools/tflite_dump.py --summary` beside Vela 3.10's (`shared/reference/codegen/INDEX.tsv`); "
             "\"file\" compares the sha256 of the whole file with Vela's `dump.json`. Command streams and flash "
             "count as identical when the sha256 of all of them, in operator order, are equal.", ""]
    totals = {"runs": 0, "streams": 0, "flash": 0, "scratch": 0, "operators": 0, "file": 0}
    differences = []
    for config in CONFIGS:
        lines += [f"### {config}", "", "| model | ethos-u ops | command streams | flash | scratch / fast | file |",
                  "| --- | --- | --- | --- | --- | --- |"]
        for model in models:
            row = index.get((config, model.stem))
            if row is None:
                continue
            result = compare_run(binary, shared, config, model, row)
            print(f"codegen {config} {model.stem}: {result.get('error') or 'ok'}", file=sys.stderr)
            if result["vela_failed"]:
                ours = "ours failed too" if result["error"] else "ours compiles"
                lines.append(f"| {model.stem} | Vela failed ({result['vela_error'][:50]}); {ours} | | | | |")
                continue
            if result["error"]:
                lines.append(f"| {model.stem} | **ours failed**: {result['error']} | | | | |")
                differences.append(f"{config} {model.stem}: ours failed: {result['error']}")
                totals["runs"] += 1
                continue
            totals["runs"] += 1
            same = {column: result[column][0] == result[column][1] for column in COLUMNS}
            streams = same["cmd_stream_sha256"] and same["cmd_stream_bytes"]
            flash = same["flash_sha256"] and same["flash_bytes"]
            scratch = same["scratch_bytes"] and same["scratch_fast_bytes"]
            operators = same["n_ethos_u_ops"] and same["n_other_ops"]
            for key, value in (("streams", streams), ("flash", flash), ("scratch", scratch), ("operators", operators),
                               ("file", result["file_identical"])):
                totals[key] += 1 if value else 0
            mark = lambda ok, text: text if ok else f"**{text}**"  # noqa: E731
            ops = result["n_ethos_u_ops"]
            lines.append(f"| {model.stem} | {mark(operators, ops[0] + ' / ' + ops[1])} "
                         f"| {mark(streams, 'identical' if streams else 'differ')} "
                         f"| {mark(flash, 'identical' if flash else 'differ')} "
                         f"| {mark(scratch, result['scratch_bytes'][0] + ' / ' + result['scratch_fast_bytes'][0])} "
                         f"| {'identical' if result['file_identical'] else 'differs'} |")
            if not (streams and flash and scratch and operators):
                differences.append(f"{config} {model.stem}: " + ", ".join(
                    f"{c} ours {result[c][0]} Vela {result[c][1]}" for c in COLUMNS if not same[c]))
        lines.append("")
    runs = totals["runs"]
    share = lambda n: f"{n}/{runs} ({n / runs * 100:.1f}%)" if runs else "n/a"  # noqa: E731
    lines += ["### Totals", "",
              f"- command streams byte-identical: {share(totals['streams'])}",
              f"- flash byte-identical: {share(totals['flash'])}",
              f"- scratch and fast scratch sizes equal: {share(totals['scratch'])}",
              f"- ethos-u and CPU operator counts equal: {share(totals['operators'])}",
              f"- whole `_vela.tflite` byte-identical: {share(totals['file'])}", ""]
    if differences:
        lines += ["Differences:", ""] + [f"- {d}" for d in differences] + [""]
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", type=Path, required=True)
    parser.add_argument("--shared", type=Path, required=True)
    parser.add_argument("--output", type=Path)
    parser.add_argument("--models", default="")
    args = parser.parse_args()
    models = sorted((args.shared / "models").glob("*.tflite"))
    if args.models:
        models = [m for m in models if m.stem in set(args.models.split(","))]
    text = "\n".join(section(args.build / "bin" / "npu-pipeline", args.shared, models)) + "\n"
    if args.output:
        args.output.write_text(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
