#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Fills bench/differential.py's cache of Vela results for many networks at a lower cost: Vela is imported
once, then every compilation runs in a forked child (a fresh copy of Vela's module state, so one network
cannot leak into the next), which spares the interpreter start and imports (most of a small network's
compile time). Writes the same JSON files as differential.py's run_vela, and skips those already there,
so it resumes where it stopped.

Vela is an oracle beside the project (shared/tools/vela-oracle.sh), never run by tests or CI.

usage: nice -n 19 bench/vela_batch.py --release 310 --work /work/diffcache --configs C1,C3,C5 MODEL...
"""

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import differential  # noqa: E402

ORACLE = Path("/work/oracle")


def compile_in_child(release: str, config: str, model: Path, cache: Path) -> None:
    """Forks, compiles in the child and writes the cache file; the parent waits."""
    with tempfile.TemporaryDirectory(prefix="vela-") as out:
        command = differential.vela_command(release, str(ORACLE / "bin" / f"vela{release}"), config, model,
                                            Path(out))
        log = Path(out) / "log.txt"
        pid = os.fork()
        if pid == 0:  # child: Vela's main with the same arguments as the command line
            code = 1
            try:
                os.chdir(out)
                fd = os.open(str(log), os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
                os.dup2(fd, 1)
                os.dup2(fd, 2)
                from ethosu.vela.vela import main  # imported by the parent already: no cost
                code = main(command[1:]) or 0
            except SystemExit as stop:
                code = stop.code if isinstance(stop.code, int) else 1
            except BaseException:  # noqa: B036 - Vela's crash is a result (vela-failed), as on the command line
                import traceback
                traceback.print_exc()
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        os.waitpid(pid, 0)
        summary = differential.read_csv_rows(Path(out), "*_summary_*.csv")
        text = log.read_text(errors="replace") if log.exists() else ""
        result = {"command": " ".join(command[1:]).replace(out, "OUT"), "ok": bool(summary), "log": text[-4000:],
                  "summary": summary[0] if summary else {},
                  "layers": differential.read_csv_rows(Path(out), "*_per-layer.csv"),
                  "passes": differential.read_csv_rows(Path(out), "*_pass-breakdown_*.csv")}
    cache.write_text(json.dumps(result))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--release", choices=["310", "21"], required=True)
    parser.add_argument("--work", type=Path, required=True, help="differential.py's --work folder (the cache)")
    parser.add_argument("--configs", required=True, help="e.g. C1,C3,C5")
    parser.add_argument("models", type=Path, nargs="+")
    args = parser.parse_args()
    folder = "vela310" if args.release == "310" else "vela21"
    path = f"{ORACLE / f'site-{folder}'}:{ORACLE / folder}"
    if os.environ.get("PYTHONPATH") != path:  # Vela's own packages (2.1.1 needs an older numpy) before any import
        os.environ["PYTHONPATH"] = path
        os.execv(sys.executable, [sys.executable, *sys.argv])
    import warnings
    warnings.simplefilter("ignore", DeprecationWarning)
    import ethosu.vela.vela  # noqa: F401 - imported once, before the forks
    for model in args.models:
        for config in args.configs.split(","):
            cache = args.work / f"{model.stem}.vela{args.release}.{config}.json"
            if not cache.exists():
                compile_in_child(args.release, config, model.resolve(), cache)
                print(f"{cache.name}: {'ok' if json.loads(cache.read_text())['ok'] else 'failed'}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
