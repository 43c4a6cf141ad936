#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A walk through npu-pipeline's Python API, notebook style: compile a model for an Ethos-U55, look at
where the cycles go, try a smaller SRAM, and A/B the two schedulers.

Run from a build tree:  PYTHONPATH=build/test/python python3 examples/python_api.py MODEL.tflite
(with the Debian package installed, plain `python3` finds the module). Without MODEL, it generates one
with npu-model-gen from the same build tree.
"""

import subprocess
import sys
import tempfile
from pathlib import Path

import npu_pipeline


def example_model(work: Path) -> Path:
    generator = Path(npu_pipeline.__file__).resolve().parents[2] / "bin" / "npu-model-gen"
    model = work / "mobilenet_v1_025_96.tflite"
    subprocess.run([str(generator), "mobilenet-v1", "--alpha", "0.25", "--resolution", "96", "-o", str(model)],
                   check=True, stdout=subprocess.DEVNULL)
    return model


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="npu-python-"))
    model = Path(sys.argv[1]) if len(sys.argv) > 1 else example_model(work)
    print(f"npu_pipeline {npu_pipeline.__version__}, model {model.name}")

    # 1. Compile with a bundled reference pipeline (Ethos-U55-128, shared SRAM, cascade scheduler).
    result = npu_pipeline.compile(model, "C1-cascade")
    totals = result.totals
    print(f"\n{result.network}: {totals['cycles']['total']:,.0f} cycles, "
          f"{result.inference_time_s * 1e3:.3f} ms, SRAM {totals['memory_used_bytes'].get('sram', 0) / 1024:.1f} KiB, "
          f"{totals['npu_operations']} NPU / {totals['cpu_operations']} CPU operations")

    # 2. Where do the cycles go? The five most expensive layers.
    print("\nmost expensive layers:")
    for layer in sorted(result.layers, key=lambda l: -l["cycles"]["total"])[:5]:
        share = layer["cycles"]["total"] / totals["cycles"]["total"]
        print(f"  {layer['name'][:40]:40} {layer['operation']:18} {layer['cycles']['total']:>10,.0f}  {share:6.1%}")

    # 3. The deployable model, as `npu-pipeline run -o` writes it.
    written = result.write(work / "out")
    print("\nwrote", ", ".join(p.name for p in written))

    # 4. What does a smaller SRAM cost? Overrides work as the command's --set.
    print("\narena cache size sweep (C5: U55-128, shared SRAM):")
    for size in ("512KiB", "256KiB", "128KiB", "64KiB"):
        try:
            small = npu_pipeline.compile(model, "C5-cascade", set={"accelerator.arena_cache_size": size})
            print(f"  {size:>7}: {small.totals['cycles']['total']:>12,.0f} cycles")
        except npu_pipeline.CompileError as error:
            print(f"  {size:>7}: does not fit ({str(error).splitlines()[0]})")

    # 5. A/B: the Vela 2.1 dynamic-programming scheduler against the Vela 3.x cascade scheduler.
    comparison = npu_pipeline.compare(model, "C1-dp", "C1-cascade")
    print("\n" + comparison.text)


if __name__ == "__main__":
    main()
