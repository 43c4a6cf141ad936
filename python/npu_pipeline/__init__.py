# SPDX-License-Identifier: Apache-2.0
"""npu-pipeline from Python: compile TensorFlow Lite models for microcontroller NPUs (Arm Ethos-U55/U65
and vendors' plugins) and read what the compiler estimated.

    import npu_pipeline
    result = npu_pipeline.compile("model.tflite", "C1-cascade")
    print(result.totals["cycles"]["total"], result.inference_time_s)
    for layer in result.layers: ...
    open(result.output_name, "wb").write(result.output_model)

Every figure comes from the C++ core through the same functions the `npu-pipeline` command uses: the
report is the command's JSON (`npu-pipeline run -o`), parsed.
"""

import json
import os
from pathlib import Path
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Union

from . import _native
from ._native import CompileError, ConfigError, Error, ModelError

__all__ = ["compile", "compare", "sweep", "reference_pipeline", "Result", "Comparison", "SweepResult",
           "Error", "ConfigError", "ModelError", "CompileError", "__version__"]
__version__ = _native.version

PipelineLike = Union[str, os.PathLike, Mapping]


def _search_dirs():
    """Plugin and config folders of this package's npu-pipeline: the build tree's, or the install prefix's."""
    from . import _paths
    if _paths.PREFIX_FROM_PACKAGE is None:
        return list(_paths.PLUGIN_DIRS), list(_paths.CONFIG_DIRS)
    prefix = (Path(__file__).resolve().parent / _paths.PREFIX_FROM_PACKAGE).resolve()
    return [str(prefix / d) for d in _paths.PLUGIN_DIRS], [str(prefix / d) for d in _paths.CONFIG_DIRS]


def _config_roots() -> List[Path]:
    return [Path(d) for d in _search_dirs()[1] if Path(d).is_dir()]


_BUNDLED_FOLDERS = ("reference", "search")  # configs/reference, then configs/search (C1-search, ...)


def reference_pipeline(name: str) -> Path:
    """The bundled pipeline file of that name, e.g. "C1-cascade", "C3-dp" or "C5-search"."""
    file_name = name if name.endswith(".yaml") else name + ".yaml"
    for folder in _BUNDLED_FOLDERS:
        for root in _config_roots():
            candidate = root / folder / file_name
            if candidate.is_file():
                return candidate
    looked = [str(r / folder) for folder in _BUNDLED_FOLDERS for r in _config_roots()]
    raise ConfigError(f"no bundled reference pipeline named '{name}' (looked in "
                      f"{', '.join(looked) or 'no config folder'})")


def _overrides(settings: Union[None, Mapping[str, object], Iterable[str]]) -> List[str]:
    if settings is None:
        return []
    if isinstance(settings, Mapping):
        return [f"{key}={value}" for key, value in settings.items()]
    return [str(item) for item in settings]


def _source(pipeline: PipelineLike, settings) -> "_native.PipelineSource":
    if isinstance(pipeline, Mapping):
        # YAML is a superset of JSON: the mapping goes through the same parser and checks as a file.
        return _native.PipelineSource(json.dumps(pipeline, indent=1), "<pipeline dict>", _overrides(settings))
    path = Path(pipeline)
    if not path.exists() and os.sep not in str(pipeline) and not str(pipeline).endswith(".yaml"):
        path = reference_pipeline(str(pipeline))
    return _native.PipelineSource("", str(path), _overrides(settings))


class Result:
    """One compiled model: the report (as the JSON of `npu-pipeline run -o`) and the optimised model."""

    def __init__(self, native: Dict):
        self.network: str = native["network"]
        self.pipeline_yaml: str = native["pipeline_yaml"]
        files = native["report"] or {}
        self.json: Optional[str] = files.get("json")  # the report as `run -o` writes it
        self.report: Optional[Dict] = json.loads(self.json) if self.json else None
        self.text: Optional[str] = files.get("text")
        self.summary_csv: Optional[str] = files.get("summary_csv")
        self.per_layer_csv: Optional[str] = files.get("per_layer_csv")
        self.html: Optional[str] = files.get("html")
        self.output_name: Optional[str] = native["output_name"]
        self.output_model: Optional[bytes] = native["output_bytes"]

    @property
    def totals(self) -> Dict:
        return self.report["totals"] if self.report else {}

    @property
    def layers(self) -> List[Dict]:
        return self.report["layers"] if self.report else []

    @property
    def cpu_operations(self) -> List[Dict]:
        return self.report["cpu_operations"] if self.report else []

    @property
    def inference_time_s(self) -> float:
        return self.totals.get("inference_time_s", 0.0)

    def write(self, directory: Union[str, os.PathLike]) -> List[Path]:
        """Writes the files `npu-pipeline run -o DIR` writes (report files and the optimised model)."""
        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        written = []
        if self.report:
            system = self.report["configuration"].get("system", "")
            for name, text in ((f"{self.network}.txt", self.text),
                               (f"{self.network}_summary_{system}.csv", self.summary_csv),
                               (f"{self.network}_per-layer.csv", self.per_layer_csv),
                               (f"{self.network}.json", self.json),
                               (f"{self.network}.html", self.html)):
                (out / name).write_text(text)
                written.append(out / name)
        if self.output_model is not None:
            (out / self.output_name).write_bytes(self.output_model)
            written.append(out / self.output_name)
        return written

    def __repr__(self) -> str:
        cycles = self.totals.get("cycles", {}).get("total") if self.report else None
        return f"<npu_pipeline.Result {self.network}: {cycles} cycles>"


class Comparison:
    """Models compiled by two pipelines: the text, CSVs and HTML of `npu-pipeline compare`, and both reports."""

    def __init__(self, native: Dict):
        self.text: str = native["text"]
        self.summary_csv: str = native["summary_csv"]
        self.html: str = native["html"]
        self.models: List[Dict] = []
        for entry in native["models"]:
            self.models.append({
                "model": entry["model"],
                "failure_a": entry["failure_a"] or None,
                "failure_b": entry["failure_b"] or None,
                "a": json.loads(entry["json_a"]) if entry["json_a"] else None,
                "b": json.loads(entry["json_b"]) if entry["json_b"] else None,
                "layers_csv": entry["layers_csv"],
            })

    @property
    def compared(self) -> bool:
        """True when both pipelines compiled every model."""
        return all(m["failure_a"] is None and m["failure_b"] is None for m in self.models)


def _export_config_path(configs: List[str]) -> None:
    """Lets the C++ core find the bundled configs (it looks beside its program, which is python3 here)."""
    known = os.environ.get("NPU_PIPELINE_CONFIG_PATH", "")
    missing = [c for c in configs if c not in known.split(":")]
    if missing:
        os.environ["NPU_PIPELINE_CONFIG_PATH"] = ":".join([d for d in [known] + missing if d])


def compile(model: Union[str, os.PathLike], pipeline: PipelineLike = "C1-cascade", *,
            set: Union[None, Mapping[str, object], Iterable[str]] = None, threads: int = 0,
            plugin_path: Sequence[Union[str, os.PathLike]] = (), vela_options: Optional[Sequence[str]] = None
            ) -> Result:
    """Compiles MODEL with PIPELINE: a pipeline file, the name of a bundled reference pipeline ("C1-cascade",
    "C3-dp", ...) or a mapping with the structure of a pipeline file. `set` overrides settings as the
    command's `--set key=value` does. With `vela_options` (Vela 3.10's command-line options, as
    `npu-pipeline vela` takes them, e.g. ["--accelerator-config", "ethos-u55-128", "--config", "Arm/vela.ini",
    "--system-config", "Ethos_U55_High_End_Embedded", "--memory-mode", "Shared_Sram"]) the pipeline is the
    one those options describe instead. Raises ConfigError, ModelError or CompileError with the located
    message the command prints; a network that does not fit its SRAM limit raises a CompileError whose
    `smallest_fitting_sram` is the smallest limit in bytes that fits it with this pipeline (None when no
    limit does; `set={"fit_search": False}` skips that search) and `sram_limit` the limit it missed."""
    plugins, configs = _search_dirs()
    plugins = [str(p) for p in plugin_path] + plugins
    _export_config_path(configs)
    if vela_options is not None:
        return Result(_native.compile_vela([str(model)] + [str(o) for o in vela_options], threads, plugins))
    return Result(_native.compile(_source(pipeline, set), str(model), threads, plugins, configs))


def compare(models: Union[str, os.PathLike, Sequence[Union[str, os.PathLike]]], pipeline_a: PipelineLike,
            pipeline_b: PipelineLike, *, set=None, set_a=None, set_b=None, threads: int = 0,
            plugin_path: Sequence[Union[str, os.PathLike]] = ()) -> Comparison:
    """Compiles every model with both pipelines, as `npu-pipeline compare A B MODEL...` does."""
    if isinstance(models, (str, os.PathLike)):
        models = [models]
    plugins, configs = _search_dirs()
    plugins = [str(p) for p in plugin_path] + plugins
    both = _overrides(set)
    source_a = _source(pipeline_a, both + _overrides(set_a))
    source_b = _source(pipeline_b, both + _overrides(set_b))
    return Comparison(_native.compare(source_a, source_b, [str(m) for m in models], threads, plugins, configs))


class SweepResult:
    """A sweep's table (one row per network and configuration, as sweep.csv), with what this run did."""

    def __init__(self, native: Dict):
        import csv
        import io
        self.output_dir = Path(native["output_dir"])
        self.csv: str = native["csv"]
        self.table: Dict = json.loads(native["json"])
        self.rows: List[Dict[str, str]] = list(csv.DictReader(io.StringIO(self.csv)))
        self.already_done: int = native["already_done"]
        self.compiled: int = native["compiled"]
        self.failed: int = native["failed"]

    def __repr__(self) -> str:
        return (f"<npu_pipeline.SweepResult {len(self.rows)} rows: {self.compiled} compiled, "
                f"{self.already_done} already done, {self.failed} failed>")


def sweep(sweep_file: Union[str, os.PathLike], output_dir: Union[str, os.PathLike, None] = None, *,
          threads: int = 0, plugin_path: Sequence[Union[str, os.PathLike]] = ()) -> SweepResult:
    """Runs a sweep file as `npu-pipeline sweep FILE -o DIR` does (points already in DIR are not compiled
    again; a point that does not compile is a row with its reason) and returns the table."""
    plugins, _ = _search_dirs()
    plugins = [str(p) for p in plugin_path] + plugins
    return SweepResult(_native.sweep(str(sweep_file), str(output_dir or ""), threads, plugins))
