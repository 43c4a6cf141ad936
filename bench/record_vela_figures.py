#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Records what real Vela 3.10 (or 2.1.1) reports for a generated network as a regression case of
tests/generated_networks (so CI keeps the comparison without Vela): copies the network into
tests/generated_networks/networks/ and appends one row per configuration to vela310_figures.tsv
(vela21_figures.tsv with --release 21), with the exact Vela command line as provenance. Vela 2.1.1's
summary has no weight totals: their columns stay empty.

usage: bench/record_vela_figures.py NETWORK.tflite --configs C1,C3,C5 [--arena-cache-size BYTES]
                                    [--on-sram-overflow warn] [--note TEXT] [--vela310 PATH]
       bench/record_vela_figures.py NETWORK.tflite --release 21 --configs C1,C3,C4 [--note TEXT]
       bench/record_vela_figures.py WORK/random_30.tflite --release 21 --configs C1,C3,C4 --cached WORK \
                                    --as scale_dma_vela21_a.tflite   # Vela's results cached by differential.py
Run by hand beside the project (see shared/tools/vela-oracle.sh); never from tests or CI.
"""

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import differential  # noqa: E402

FOLDER = Path(__file__).resolve().parent.parent / "tests" / "generated_networks"
COLUMNS = ["network", "config", "overrides", "total_cycles", "sram_bytes", "encoded_weights", "original_weights",
           "note", "vela_command"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("network", type=Path)
    parser.add_argument("--configs", default="C1,C3,C5")
    parser.add_argument("--arena-cache-size", type=int)
    parser.add_argument("--on-sram-overflow", choices=["warn"])
    parser.add_argument("--note", default="")
    parser.add_argument("--vela310", default="/work/oracle/bin/vela310")
    parser.add_argument("--vela21", default="/work/oracle/bin/vela21")
    parser.add_argument("--release", choices=["310", "21"], default="310")
    parser.add_argument("--cached", type=Path, help="take Vela's results from this differential.py work folder "
                        "(its cache of NETWORK) instead of running Vela again")
    parser.add_argument("--as", dest="name", help="file name of the recorded copy (default: NETWORK's)")
    args = parser.parse_args()
    binary, version = (args.vela310, "vela 3.10.0 (8cb3c36) ") if args.release == "310" else \
        (args.vela21, "vela 2.1.1 (41c006a) ")
    target = FOLDER / "networks" / (args.name or args.network.name)
    target.parent.mkdir(parents=True, exist_ok=True)
    if args.network.resolve() != target.resolve():
        shutil.copyfile(args.network, target)
    table = FOLDER / f"vela{args.release}_figures.tsv"
    if not table.exists():
        table.write_text("\t".join(COLUMNS) + "\n")
    for config in args.configs.split(","):
        extra = ["--arena-cache-size", str(args.arena_cache_size)] if args.arena_cache_size else []
        overrides = []
        if args.arena_cache_size:
            overrides.append(f"accelerator.arena_cache_size={args.arena_cache_size}")
        if args.on_sram_overflow:
            overrides.append(f"accelerator.on_sram_overflow={args.on_sram_overflow}")
        if args.cached:
            cache = args.cached / f"{args.network.stem}.vela{args.release}.{config}.json"
            if extra or not cache.exists():
                print(f"{config}: no cached result {cache} (or extra options)", file=sys.stderr)
                continue
            result = json.loads(cache.read_text())
            # The model's path as Vela was given it (the cache may have been filled from another folder).
            source = next((word for word in result["command"].split() if word.endswith("/" + args.network.name)),
                          str(args.network))
        else:
            with tempfile.TemporaryDirectory() as work:
                # The extra options come last so that they override the configuration's own.
                differential.VELA_CONFIGS["_"] = differential.VELA_CONFIGS[config] + extra
                result = differential.run_vela(args.release, binary, "_", target, Path(work))
            source = str(target)
        if not result["ok"]:
            print(f"{config}: Vela failed: {result['log'][-300:]}", file=sys.stderr)
            continue
        summary = result["summary"]
        command = result["command"].replace(source, f"networks/{target.name}")
        command = command.replace(str(Path(binary).resolve().parent.parent / "vela21" / "vela.ini"), "vela21/vela.ini")
        row = [target.name, config, ",".join(overrides), summary["cycles_total"],
               str(round(float(summary["sram_memory_used"]) * 1024)), summary.get("total_npu_encoded_weights", ""),
               summary.get("total_original_weights", ""), args.note, version + command]
        with open(table, "a") as handle:
            handle.write("\t".join(row) + "\n")
        print("\t".join(row[:7]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
