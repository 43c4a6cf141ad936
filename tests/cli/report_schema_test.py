#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The JSON reports validate against docs/report.schema.json (JSON Schema 2020-12, checked with Debian's
python3-jsonschema): `run -o` on a generated network with a cascade and a DP reference pipeline, and
`vela --json --timing`. Also checks that the units the schema promises are in the field names."""
import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import jsonschema


def run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{' '.join(map(str, command))} failed ({result.returncode}):\n{result.stdout}{result.stderr}")


def unitless_quantities(value, path=""):
    """Names of numeric fields outside unit-named objects that carry no unit suffix (counts allowed)."""
    allowed = re.compile(r"(_bytes|_hz|_s|_cycles|_channels|_step|_per_cycle|_per_s|_bits|_index|operations|"
                         r"_ratio|^macs|^cores|^cascade|^clock_scale|^format_version|^macs_per_cycle)$")
    unit_objects = {"cycles", "access_bytes", "memory_used_bytes", "options", "bound_resource_cycles"}
    found = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key in unit_objects:
                continue
            if isinstance(item, (int, float)) and not isinstance(item, bool) and not allowed.search(key):
                found.append(f"{path}/{key}")
            found += unitless_quantities(item, f"{path}/{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value[:3]):
            found += unitless_quantities(item, f"{path}/{index}")
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", type=Path, required=True)
    parser.add_argument("--source", type=Path, required=True)
    args = parser.parse_args()
    schema = json.loads((args.source / "docs" / "report.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    binary = args.build / "bin" / "npu-pipeline"
    with tempfile.TemporaryDirectory() as work:
        work = Path(work)
        model = work / "net.tflite"
        run([args.build / "bin" / "npu-model-gen", "mobilenet-v1", "--alpha", "0.25", "--resolution", "64",
             "--blocks", "4", "-o", model])
        reports = []
        for pipeline in ("C3-cascade.yaml", "C1-dp.yaml"):
            out = work / pipeline
            run([binary, "run", args.source / "configs" / "reference" / pipeline, model, "-o", out, "-q",
                 "--set", "report.formats=json"])
            reports.append(out / "net.json")
        run([binary, "vela", model, "--json", "--timing", "--output-dir", work / "vela"])
        reports.append(work / "vela" / "net.json")
        failures = 0
        for report in reports:
            document = json.loads(report.read_text())
            for error in validator.iter_errors(document):
                print(f"{report}: {'/'.join(map(str, error.absolute_path))}: {error.message}")
                failures += 1
            for name in unitless_quantities(document):
                print(f"{report}: {name}: a quantity without a unit in its name")
                failures += 1
        timed = json.loads(reports[-1].read_text())
        if not timed.get("stage_times"):
            print("vela --timing --json wrote no stage_times")
            failures += 1
        if "stage_times" in json.loads(reports[0].read_text()):
            print("run wrote stage_times without being asked (the JSON must be byte-identical run to run)")
            failures += 1
        if not isinstance(json.loads(reports[0].read_text())["pipeline"], dict):
            print("the pipeline is not structured JSON")
            failures += 1
    print(f"{len(reports)} reports checked, {failures} problems")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
