# SPDX-License-Identifier: Apache-2.0
"""Shared pieces of the parity and benchmark tools: running npu-pipeline, reading its reports and
Vela's reference outputs, and error statistics."""

import csv
import json
import os
import re
import statistics
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional

REPO = Path(__file__).resolve().parent.parent


@dataclass
class RunResult:
    ok: bool
    error: str = ""
    wall_s: float = 0.0
    peak_rss_mb: float = 0.0
    summary: Dict[str, str] = field(default_factory=dict)
    report: dict = field(default_factory=dict)

    def number(self, column: str) -> float:
        return float(self.summary.get(column, "nan"))

    @property
    def total_cycles(self) -> float:
        return self.number("cycles_total")

    @property
    def sram_peak_bytes(self) -> float:
        return self.number("sram_memory_used") * 1024.0

    @property
    def offchip_read_bytes(self) -> float:
        # As INDEX.tsv's offchip_read_bytes: feature-map and weight reads from DRAM and off-chip flash.
        return sum(self.number(f"{area}_{purpose}_read_bytes")
                   for area in ("dram", "off_chip_flash") for purpose in ("feature_map", "weight"))

    @property
    def encoded_weight_bytes(self) -> float:
        return self.number("total_npu_encoded_weights")


def run_pipeline(binary: Path, pipeline: Path, model: Path, extra: Optional[List[str]] = None) -> RunResult:
    """Compiles one model; measures wall time and the process's peak resident memory."""
    with tempfile.TemporaryDirectory(prefix="npu-parity-") as out:
        command = [str(binary), "run", str(pipeline), str(model), "-o", out, "--quiet",
                   "--set", "report.formats=csv,json"] + (extra or [])
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        stderr = process.stderr.read() if process.stderr else ""
        process.returncode = os.waitstatus_to_exitcode(status)
        rss_mb = usage.ru_maxrss / 1024.0
        if process.returncode != 0:
            message = stderr.strip().splitlines()[0] if stderr.strip() else f"exit code {process.returncode}"
            return RunResult(False, message, wall, rss_mb)
        summary_files = list(Path(out).glob("*_summary_*.csv"))
        json_files = list(Path(out).glob("*.json"))
        if not summary_files or not json_files:
            return RunResult(False, "no report written", wall, rss_mb)
        with open(summary_files[0], newline="") as handle:
            summary = next(csv.DictReader(handle))
        report = json.loads(json_files[0].read_text())
        return RunResult(True, "", wall, rss_mb, summary, report)


TIMING_RUNS = 3


def fastest_wall(binary: Path, pipeline: Path, model: Path, first: RunResult) -> float:
    """The fastest wall time of `first` and further runs, TIMING_RUNS in all: one run is at the mercy of
    whatever else the machine does."""
    walls = [first.wall_s] + [run_pipeline(binary, pipeline, model).wall_s for _ in range(TIMING_RUNS - 1)]
    return min(walls)


def read_index(reference: Path) -> Dict[tuple, dict]:
    """INDEX.tsv rows keyed by (version, config, model)."""
    with open(reference / "INDEX.tsv", newline="") as handle:
        return {(row["version"], row["config"], row["model"]): row
                for row in csv.DictReader(handle, delimiter="\t")}


def relative_error(ours: float, theirs: float) -> Optional[float]:
    if theirs is None or ours != ours:
        return None
    if theirs == 0:
        return 0.0 if ours == 0 else None
    return (ours - theirs) / theirs


def as_float(text: str) -> Optional[float]:
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def error_stats(errors: List[Optional[float]]) -> str:
    values = [abs(e) for e in errors if e is not None]
    if not values:
        return "n/a"
    within = sum(1 for v in values if v <= 0.10)
    return (f"median {statistics.median(values) * 100:.2f}%, max {max(values) * 100:.2f}%, "
            f"{within}/{len(values)} within 10%")


def percent(error: Optional[float]) -> str:
    return "n/a" if error is None else f"{error * 100:+.2f}%"


# --- Vela 3.10 schedule.txt -------------------------------------------------------------------------

_OPERATION = re.compile(r"^\t(\d+): Operation (.*?)  - OFM <Shape4D \[(.*?)\]>")
_FIELD = re.compile(r"^\t\t([A-Za-z0-9 ]+?)\s*=\s*(.*)$")
_SHAPE = re.compile(r"\[([^\]]*)\]")


def _shape(text: str) -> Optional[List[int]]:
    match = _SHAPE.search(text)
    return [int(v) for v in match.group(1).split(",")] if match else None


def parse_vela310_schedule(path: Path) -> Dict[str, dict]:
    """Per operation name: block config [h, w, ifm depth, ofm depth], OFM stripe, cascade, weight buffers."""
    operations: Dict[str, dict] = {}
    current = None
    for line in path.read_text(errors="replace").splitlines():
        match = _OPERATION.match(line)
        if match:
            current = {"buffers": []}
            operations[match.group(2)] = current
            continue
        if current is None:
            continue
        field_match = _FIELD.match(line)
        if not field_match:
            if not line.startswith("\t\t"):
                current = None
            continue
        key, value = field_match.group(1), field_match.group(2)
        if key == "Block Config":
            current["block"] = _shape(value)
        elif key == "OFM Stripe":
            current["ofm_stripe"] = _shape(value)
        elif key == "Assigned Cascade":
            current["cascade"] = int(value)
        elif key.startswith("Weight buffer"):
            current["buffers"].append(int(value.split()[0]))
    return operations


def our_operations(report: dict) -> Dict[str, dict]:
    """The same fields from one of our JSON reports."""
    operations = {}
    for layer in report.get("layers", []):
        block = layer["block_config"]
        ofm_block, ifm_block = block["ofm_block_nhwc"], block["ifm_block_nhwc"]
        weights = layer.get("weights") or {}
        operations[layer["name"]] = {
            "block": [ofm_block[1], ofm_block[2], ifm_block[3], ofm_block[3]],
            "ofm_stripe": layer["ofm_stripe_nhwc"],
            "cascade": layer["cascade"],
            "buffers": list(weights.get("buffer_bytes", [])),
            "strategy": layer.get("strategy", ""),
        }
    return operations


def schedule_agreement(vela: Dict[str, dict], ours: Dict[str, dict]) -> Dict[str, tuple]:
    """(agreeing, compared) per decision over the operations both schedules contain."""
    shared = [name for name in vela if name in ours]
    checks = {
        "block config": lambda v, o: v.get("block") == o["block"],
        "OFM stripe": lambda v, o: v.get("ofm_stripe") == o["ofm_stripe"],
        "cascaded or not": lambda v, o: (v.get("cascade", 0) != 0) == (o["cascade"] != 0),
        "weight buffers": lambda v, o: v.get("buffers", []) == o["buffers"],
    }
    result = {}
    for name, check in checks.items():
        result[name] = (sum(1 for op in shared if check(vela[op], ours[op])), len(shared))
    result["matched by name"] = (len(shared), len(vela))
    return result


# --- Vela 2.1 pass-breakdown CSV --------------------------------------------------------------------

def parse_vela21_passes(path: Path) -> Dict[str, dict]:
    """Per NPU pass name: block config (h, w, ifm depth, ofm depth) and streaming strategy."""
    passes = {}
    with open(path, newline="") as handle:
        for row in csv.DictReader(handle):
            if row["placement"] != "Npu":
                continue
            passes[row["name"]] = {
                "block": [int(row["block_config_height"]), int(row["block_config_width"]),
                          int(row["block_config_input_channels"]), int(row["block_config_output_channels"])],
                "strategy": row["streaming_strategy"],
            }
    return passes


def write_markdown(lines: List[str], output: Optional[Path], appendix: Optional[Path] = None) -> None:
    """Joins the lines, appends the hand-written `appendix` file if it exists, and writes the text to
    `output` (stdout when None)."""
    if appendix is not None and appendix.exists():
        lines = lines + [appendix.read_text().rstrip(), ""]
    text = "\n".join(lines) + "\n"
    if output:
        output.write_text(text)
    else:
        print(text)
