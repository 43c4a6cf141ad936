#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The Python API gives what the command line gives: the same report and the same optimised model for the
same model and pipeline, pipelines as files, reference names or dicts, and located errors as exceptions."""

import json
import os
import subprocess
import tempfile
import unittest
from pathlib import Path

import npu_pipeline

BIN = Path(os.environ["NPU_TEST_BIN_DIR"]).resolve()
SOURCE = Path(os.environ["NPU_TEST_SOURCE_DIR"]).resolve()
REFERENCE = SOURCE / "configs" / "reference"


class PythonApiTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.TemporaryDirectory()
        cls.model = Path(cls.work.name) / "mobilenet.tflite"
        subprocess.run([BIN / "npu-model-gen", "mobilenet-v1", "--alpha", "0.25", "--resolution", "96",
                        "-o", cls.model], check=True, stdout=subprocess.DEVNULL)

    @classmethod
    def tearDownClass(cls):
        cls.work.cleanup()

    def run_cli(self, pipeline: Path, out: Path):
        subprocess.run([BIN / "npu-pipeline", "run", pipeline, self.model, "-o", out, "--quiet"], check=True)
        return json.loads((out / "mobilenet.json").read_text()), (out / "mobilenet_vela.tflite").read_bytes()

    def test_compile_gives_the_report_and_model_of_the_command_line(self):
        pipeline = REFERENCE / "C1-cascade.yaml"
        result = npu_pipeline.compile(self.model, pipeline)
        cli_report, cli_model = self.run_cli(pipeline, Path(self.work.name) / "cli")
        self.assertEqual(result.report, cli_report)
        self.assertEqual(result.output_model, cli_model)
        self.assertEqual(result.output_name, "mobilenet_vela.tflite")
        self.assertEqual(result.output_model[4:8], b"TFL3")
        self.assertGreater(result.totals["cycles"]["total"], 0)
        self.assertGreater(result.inference_time_s, 0.0)
        self.assertEqual(len(result.layers), result.totals["scheduled_operations"])

    def test_the_lower_bound_comes_with_the_report(self):
        result = npu_pipeline.compile(self.model, "C1-cascade")
        bound = result.totals["bound_cycles"]
        self.assertGreater(bound, 0)
        self.assertLessEqual(bound, result.totals["cycles"]["total"])
        self.assertAlmostEqual(result.totals["estimate_to_bound_ratio"], result.totals["cycles"]["total"] / bound)
        for layer in result.layers:
            self.assertLessEqual(layer["bound_cycles"], layer["cycles"]["total"] + 1e-6)
            self.assertIn(layer["bound_by"], layer["bound_resource_cycles"])

    def test_a_reference_pipeline_can_be_named(self):
        by_name = npu_pipeline.compile(self.model, "C3-dp")
        by_file = npu_pipeline.compile(self.model, REFERENCE / "C3-dp.yaml")
        self.assertEqual(by_name.totals, by_file.totals)
        self.assertEqual(npu_pipeline.reference_pipeline("C3-dp").name, "C3-dp.yaml")
        self.assertEqual(npu_pipeline.reference_pipeline("C5-search").parent.name, "search")

    def test_settings_override_the_pipeline_as_set_does(self):
        small = npu_pipeline.compile(self.model, "C5-cascade", set={"accelerator.arena_cache_size": "128KiB"})
        self.assertEqual(small.report["configuration"]["arena_cache_size_bytes"], 128 * 1024)

    def test_a_pipeline_can_be_a_dict(self):
        pipeline = {
            "name": "from python",
            "accelerator": {"plugin": "perf_u55", "config": "ethos-u55-128",
                            "system": "ethos_u55_high_end_embedded", "memory_mode": "shared_sram"},
            "stages": [{"frontend": "frontend_tflite"}, {"lowering": "ethosu_lowering"},
                       {"scheduler": {"plugin": "scheduler_cascade", "optimise": "performance"}},
                       {"allocator": "allocator_hillclimb"}],
        }
        result = npu_pipeline.compile(self.model, pipeline)
        self.assertGreater(result.totals["cycles"]["total"], 0)
        self.assertIsNone(result.output_model)

    def test_vela_options_give_the_reference_pipeline_s_result(self):
        by_options = npu_pipeline.compile(self.model, vela_options=[
            "--config", "Arm/vela.ini", "--accelerator-config", "ethos-u55-128",
            "--system-config", "Ethos_U55_High_End_Embedded", "--memory-mode", "Shared_Sram",
            "--optimise", "Performance"])
        by_pipeline = npu_pipeline.compile(self.model, "C1-cascade")
        self.assertEqual(by_options.totals, by_pipeline.totals)
        self.assertEqual(by_options.output_model, by_pipeline.output_model)
        with self.assertRaises(npu_pipeline.ConfigError):
            npu_pipeline.compile(self.model, vela_options=["--enable-debug-db"])

    def test_errors_are_exceptions_with_the_located_message(self):
        with self.assertRaises(npu_pipeline.ConfigError) as raised:
            npu_pipeline.compile(self.model, {"name": "x", "stages": [{"frontend": "frontend_tflite"}], "bogus": 1})
        self.assertIn("<pipeline dict>", str(raised.exception))
        self.assertIn("bogus", str(raised.exception))
        broken = Path(self.work.name) / "broken.tflite"
        broken.write_bytes(self.model.read_bytes()[:100])
        with self.assertRaises(npu_pipeline.ModelError):
            npu_pipeline.compile(broken, "C1-cascade")
        self.assertTrue(issubclass(npu_pipeline.CompileError, npu_pipeline.Error))

    def test_a_network_over_its_sram_limit_raises_with_the_smallest_limit_that_fits(self):
        with self.assertRaises(npu_pipeline.CompileError) as raised:
            npu_pipeline.compile(self.model, "C5-cascade", set={"accelerator.arena_cache_size": "16KiB"})
        smallest = raised.exception.smallest_fitting_sram
        self.assertEqual(raised.exception.sram_limit, 16 * 1024)
        self.assertGreater(smallest, 16 * 1024)
        self.assertIn(f"{smallest:,} bytes", str(raised.exception))
        fits = npu_pipeline.compile(self.model, "C5-cascade", set={"accelerator.arena_cache_size": smallest})
        self.assertLessEqual(fits.totals["memory_used_bytes"]["sram"], smallest)
        with self.assertRaises(npu_pipeline.CompileError) as unsearched:
            npu_pipeline.compile(self.model, "C5-cascade",
                                 set={"accelerator.arena_cache_size": "16KiB", "fit_search": False})
        self.assertFalse(hasattr(unsearched.exception, "smallest_fitting_sram"))

    def test_compare_gives_both_reports_and_the_text_of_the_command(self):
        comparison = npu_pipeline.compare(self.model, "C1-dp", "C1-cascade")
        self.assertTrue(comparison.compared)
        cli = subprocess.run([BIN / "npu-pipeline", "compare", REFERENCE / "C1-dp.yaml",
                              REFERENCE / "C1-cascade.yaml", self.model],
                             check=True, capture_output=True, text=True).stdout
        self.assertEqual(comparison.text, cli)
        self.assertGreater(comparison.models[0]["a"]["totals"]["cycles"]["total"], 0)

    def test_write_produces_the_files_of_run_o(self):
        result = npu_pipeline.compile(self.model, "C1-cascade")
        out = Path(self.work.name) / "written"
        names = sorted(p.name for p in result.write(out))
        self.assertIn("mobilenet_vela.tflite", names)
        self.assertIn("mobilenet_per-layer.csv", names)
        cli = Path(self.work.name) / "cli-written"
        self.run_cli(REFERENCE / "C1-cascade.yaml", cli)
        self.assertEqual((out / "mobilenet_per-layer.csv").read_text(), (cli / "mobilenet_per-layer.csv").read_text())

    def test_sweep_returns_the_table_of_the_sweep_command_and_resumes(self):
        folder = Path(self.work.name) / "sweep"
        (folder / "networks").mkdir(parents=True)
        (folder / "networks" / "mobilenet.tflite").write_bytes(self.model.read_bytes())
        (folder / "sweep.yaml").write_text(
            f"name: arena\npipeline: {REFERENCE / 'C1-cascade.yaml'}\n"
            "axes:\n  accelerator.arena_cache_size: [1KiB, 512KiB]\n"
            "networks: ['networks/*.tflite']\n")
        first = npu_pipeline.sweep(folder / "sweep.yaml", folder / "out-python", threads=1)
        self.assertEqual((len(first.rows), first.compiled, first.failed), (2, 2, 1))
        self.assertEqual(sorted(row["status"] for row in first.rows), ["failed", "ok"])
        again = npu_pipeline.sweep(folder / "sweep.yaml", folder / "out-python")
        self.assertEqual((again.compiled, again.already_done), (0, 2))
        subprocess.run([BIN / "npu-pipeline", "sweep", folder / "sweep.yaml", "-o", folder / "out-cli"],
                       capture_output=True, check=False)
        self.assertEqual(first.csv, (folder / "out-cli" / "sweep.csv").read_text())


if __name__ == "__main__":
    unittest.main(verbosity=2)
