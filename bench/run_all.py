"""Run the quick version of every benchmark in bench/ (`make bench`), one after the other.

    python bench/run_all.py              # all of them, a few minutes
    python bench/run_all.py --only build,sparql
    python bench/run_all.py --list

Each script runs as its own process with the small sizes below; their output is passed
through. A script this file has no quick options for is run with `--quick` if its --help
offers that flag, and skipped (with a note) otherwise, so a new benchmark never turns
`make bench` into an hour-long run. The exit status is 1 if any script failed.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
#: Helpers that are not benchmarks.
NOT_BENCHMARKS = {"run_all.py", "__init__.py"}


def quick_args(work: Path) -> dict[str, list[str]]:
    """script name -> its quick arguments."""
    return {
        "gen_corpus.py": ["--papers", "200", "--out", str(work / "corpus-200.jsonl")],
        "bench_build.py": ["--papers", "300", "--skip", "extract"],
        "build_phases.py": ["--papers", "300"],
        "bench_scaling.py": ["--papers", "200"],
        "bench_attribute_rules.py": ["--papers", "200"],
        "bench_store_load.py": ["--papers", "300"],
        "bench_sparql.py": ["--papers", "2000", "--repeat", "5", "--no-rdflib"],
        "bench_api.py": ["--papers", "2000", "--repeat", "5"],
        "bench_viz.py": ["--nodes", "200", "--repeat", "1"],
        "load_test.py": ["--quick"],
        "bench_tagger.py": ["--papers", "100"],
    }


def scripts() -> list[Path]:
    return sorted(p for p in HERE.glob("*.py") if p.name not in NOT_BENCHMARKS)


def _offers_quick(script: Path) -> bool:
    try:
        done = subprocess.run([sys.executable, str(script), "--help"], capture_output=True,
                              text=True, timeout=120, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return False
    return done.returncode == 0 and "--quick" in done.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default="",
                        help="comma-separated names (bench_build.py, build, sparql...)")
    parser.add_argument("--list", action="store_true", help="print what would run, and stop")
    args = parser.parse_args(argv)
    wanted = {name.strip().removeprefix("bench_").removesuffix(".py")
              for name in args.only.split(",") if name.strip()}

    failed: list[str] = []
    with tempfile.TemporaryDirectory(prefix="paperkg-bench-all-") as folder:
        known = quick_args(Path(folder))
        for script in scripts():
            short = script.stem.removeprefix("bench_")
            if wanted and short not in wanted:
                continue
            options = known.get(script.name)
            if options == ["--quick"] or options is None:
                if not _offers_quick(script):
                    print(f"== {script.name}: skipped (no quick options known)", flush=True)
                    continue
                options = ["--quick"]
            command = [sys.executable, str(script.relative_to(ROOT)), *options]
            print(f"== {' '.join(command[1:])}", flush=True)
            if args.list:
                continue
            started = time.perf_counter()
            status = subprocess.run(command, cwd=ROOT).returncode
            seconds = time.perf_counter() - started
            print(f"== {script.name}: {'ok' if status == 0 else f'FAILED ({status})'} "
                  f"in {seconds:.0f} s\n", flush=True)
            if status != 0:
                failed.append(script.name)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
