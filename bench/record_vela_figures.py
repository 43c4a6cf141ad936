#!/usr/bin/env python3
"""Records what real Vela 3.10 reports for a generated network as a regression case of
tests/generated_networks (so CI keeps the comparison without Vela): copies the network into
tests/generated_networks/networks/ and appends one row per configuration to vela310_figures.tsv, with
the exact Vela command line as provenance.

usage: bench/record_vela_figures.py NETWORK.tflite --configs C1,C3,C5 [--arena-cache-size BYTES]
                                    [--on-sram-overflow warn] [--note TEXT] [--vela310 PATH]
Run by hand beside the project (see shared/tools/vela-oracle.sh); never from tests or CI.
"""

import argparse
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
    args = parser.parse_args()
    target = FOLDER / "networks" / args.network.name
    target.parent.mkdir(parents=True, exist_ok=True)
    if args.network.resolve() != target.resolve():
        shutil.copyfile(args.network, target)
    table = FOLDER / "vela310_figures.tsv"
    if not table.exists():
        table.write_text("\t".join(COLUMNS) + "\n")
    for config in args.configs.split(","):
        extra = ["--arena-cache-size", str(args.arena_cache_size)] if args.arena_cache_size else []
        overrides = []
        if args.arena_cache_size:
            overrides.append(f"accelerator.arena_cache_size={args.arena_cache_size}")
        if args.on_sram_overflow:
            overrides.append(f"accelerator.on_sram_overflow={args.on_sram_overflow}")
        with tempfile.TemporaryDirectory() as work:
            # The extra options come last so that they override the configuration's own.
            differential.VELA_CONFIGS["_"] = differential.VELA_CONFIGS[config] + extra
            result = differential.run_vela("310", args.vela310, "_", target, Path(work))
        if not result["ok"]:
            print(f"{config}: Vela failed: {result['log'][-300:]}", file=sys.stderr)
            continue
        summary = result["summary"]
        command = result["command"].replace(str(target), f"networks/{target.name}")
        row = [target.name, config, ",".join(overrides), summary["cycles_total"],
               str(round(float(summary["sram_memory_used"]) * 1024)), summary["total_npu_encoded_weights"],
               summary["total_original_weights"], args.note, "vela 3.10.0 (8cb3c36) " + command]
        with open(table, "a") as handle:
            handle.write("\t".join(row) + "\n")
        print("\t".join(row[:7]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
