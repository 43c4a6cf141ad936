#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Records what real Vela 3.10 writes for the generated networks of tests/generated_networks (its
<network>_vela.tflite: the command streams, the flash contents, the scratch sizes, the whole file) as
test data, so CI compares our code generation with Vela's without Vela: vela310_outputs.tsv, one row
per network and configuration, with the exact Vela command line as provenance.

usage: bench/record_vela_outputs.py [--configs C1,C3,C5] [--networks STEM,...] [--vela310 PATH]
                                    [--dump ../shared/tools/tflite_dump.py]
Run by hand beside the project (see shared/tools/vela-oracle.sh); never from tests or CI. A network
whose schedule goes over the SRAM target gets `accelerator.on_sram_overflow=warn` (Vela warns and keeps
it). `compare_file` is "yes" when the network has no CPU operators: our writer lays out the option
tables of CPU operators differently from Vela's, so only the NPU part of such files is compared.
"""

import argparse
import hashlib
import importlib.util
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import differential  # noqa: E402

FOLDER = Path(__file__).resolve().parent.parent / "tests" / "generated_networks"
COLUMNS = ["network", "config", "overrides", "ethos_u_operators", "command_stream_sha256", "flash_sha256",
           "scratch_bytes", "scratch_fast_bytes", "compare_file", "file_sha256", "vela_command"]


def load_dump(path: Path):
    spec = importlib.util.spec_from_file_location("tflite_dump", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--configs", default="C1,C3,C5")
    parser.add_argument("--networks", default="")
    parser.add_argument("--vela310", default="/work/oracle/bin/vela310")
    parser.add_argument("--dump", type=Path,
                        default=Path(__file__).resolve().parent.parent.parent / "shared" / "tools" / "tflite_dump.py")
    args = parser.parse_args()
    dump = load_dump(args.dump)
    names = [n for n in args.networks.split(",") if n]
    networks = sorted(p for p in (FOLDER / "networks").glob("*.tflite") if not names or p.stem in names)
    rows = []
    for network in networks:
        for config in args.configs.split(","):
            with tempfile.TemporaryDirectory() as work:
                command = differential.vela_command("310", args.vela310, config, network, Path(work))
                process = subprocess.run(command, capture_output=True, text=True, cwd=work, timeout=1800)
                output = Path(work) / f"{network.stem}_vela.tflite"
                if process.returncode != 0 or not output.exists():
                    print(f"{network.name} {config}: Vela failed", file=sys.stderr)
                    continue
                (_, ethos_u, cpu_operators, _, stream_sha, _, flash_sha, scratch, scratch_fast) = dump.summary(str(output))
                log = process.stdout + process.stderr
                overrides = "accelerator.on_sram_overflow=warn" if "exceeded" in log else ""
                provenance = " ".join(command[1:]).replace(str(network), f"networks/{network.name}")
                rows.append([network.name, config, overrides, ethos_u, stream_sha, flash_sha, scratch, scratch_fast,
                             "no" if int(cpu_operators) else "yes", hashlib.sha256(output.read_bytes()).hexdigest(),
                             "vela 3.10.0 (8cb3c36) " + provenance.replace(work, "OUT")])
                print(f"{network.name} {config}: recorded", file=sys.stderr)
    table = FOLDER / "vela310_outputs.tsv"
    # With --networks, the rows of the other networks are kept (and the named ones recorded again).
    recorded = {network.name for network in networks}
    kept = [line.split("\t") for line in table.read_text().splitlines()[1:]
            if line.split("\t", 1)[0] not in recorded] if names and table.exists() else []
    with table.open("w") as out:
        out.write("\t".join(COLUMNS) + "\n")
        for row in kept + rows:
            out.write("\t".join(str(cell) for cell in row) + "\n")
    print(f"wrote {len(rows)} rows to {table}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
