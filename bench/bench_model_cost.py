"""What the learned models cost a build of real abstracts: `paperkg build --workers 2` of the
same paper-list abstracts by this checkout and by an earlier commit (default f10e8dd, the
last one before the learned tagger, claim and area classifiers), alternated size by size so
that whatever else the machine runs hits both alike.

    .venv/bin/python bench/bench_model_cost.py                          # 1,000, 4,000, all
    .venv/bin/python bench/bench_model_cost.py --sizes 200 --json /tmp/cost.json
    .venv/bin/python bench/bench_model_cost.py --report run1.log run2.log   # tables again
    .venv/bin/python bench/bench_model_cost.py --sample 1000 /tmp/sample.jsonl  # the input only

The baseline is checked out with `git worktree add --detach` into a temporary folder and run
with this checkout's interpreter, its folder first on PYTHONPATH; the folder is removed at
the end. Each build runs the real CLI (`python -m graph build FILE --store S --out E
--workers 2`, exports included) in its own process; measured per build:

  wall      seconds from start to exit
  cpu       user + system seconds of the build and its worker processes (`wait4`)
  peak      the largest summed RSS and summed PSS of the build's process tree, sampled every
            half second (PSS counts a page the forked workers share with their parent once)
  others    CPU seconds the rest of the machine used during the build (/proc/stat's busy
            time less the build's own), and the load average before and after

The abstracts (../shared/data/paperlists, `id`, `title`, `abstract`) are ordered by a hash of
their id, so each size is a mixed sample of the venues and the smaller ones are prefixes of
the larger; they are written to a temporary folder, never into the repository.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.bench_build import _tree_memory  # noqa: E402

DEFAULT_ABSTRACTS = ROOT.parent / "shared" / "data" / "paperlists" / "abstracts.jsonl.gz"
BASELINE = "f10e8dd"


def read_sample(path: Path) -> list[dict[str, str]]:
    """Every record with an abstract, as `id`, `title`, `abstract`, in the order of a hash of
    the id (fixed, independent of the file's venue order)."""
    records = []
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            if record.get("abstract", "").strip():
                records.append({"id": record["id"], "title": record.get("title", ""),
                                "abstract": record["abstract"]})
    records.sort(key=lambda r: hashlib.sha1(r["id"].encode()).hexdigest())
    return records


def write_sample(records: list[dict[str, str]], n: int, path: Path) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        for record in records[:n]:
            handle.write(json.dumps(record) + "\n")


def _busy_jiffies() -> int:
    with open("/proc/stat") as handle:
        fields = [int(x) for x in handle.readline().split()[1:]]
    # user nice system idle iowait irq softirq steal: idle and iowait are not busy
    return sum(fields[:8]) - fields[3] - fields[4]


def run_build(code: Path, corpus: Path, workdir: Path, workers: int) -> dict[str, Any]:
    """One `paperkg build` by the code in `code`; its figures."""
    env = dict(os.environ, PYTHONPATH=str(code), PYTHONHASHSEED="0")
    store, out = workdir / "store", workdir / "exports"
    command = [sys.executable, "-m", "graph", "build", str(corpus), "--store", str(store),
               "--out", str(out), "--workers", str(workers), "--no-progress"]
    load_before = os.getloadavg()[0]
    busy = _busy_jiffies()
    start = time.perf_counter()
    log = open(workdir / "build.log", "w")
    process = subprocess.Popen(command, cwd=code, env=env, stdout=log, stderr=subprocess.STDOUT)
    peak_rss = peak_pss = 0
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        rss, pss = _tree_memory(process.pid)
        peak_rss, peak_pss = max(peak_rss, rss), max(peak_pss, pss)
        time.sleep(0.5)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    log.close()
    if process.returncode:
        tail = (workdir / "build.log").read_text()[-2000:]
        raise SystemExit(f"build by {code} failed ({process.returncode}):\n{tail}")
    cpu = usage.ru_utime + usage.ru_stime
    machine = (_busy_jiffies() - busy) / os.sysconf("SC_CLK_TCK")
    return {"wall_s": round(wall, 1), "cpu_s": round(cpu, 1),
            "peak_rss_mib": round(peak_rss / 2**20), "peak_pss_mib": round(peak_pss / 2**20),
            "others_cpu_s": round(max(0.0, machine - cpu), 1),
            "load_before": round(load_before, 2), "load_after": round(os.getloadavg()[0], 2)}


def _table(results: list[dict[str, Any]]) -> str:
    lines = ["| papers | code | wall | CPU | peak RSS / PSS (tree) | ms a paper (wall / CPU) "
             "| others' CPU | load avg |",
             "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in results:
        n = r["papers"]
        lines.append(
            f"| {n:,} | {r['code']} | {r['wall_s']:,.1f} s | {r['cpu_s']:,.1f} s "
            f"| {r['peak_rss_mib']:,} / {r['peak_pss_mib']:,} MiB "
            f"| {1000 * r['wall_s'] / n:.1f} / {1000 * r['cpu_s'] / n:.1f} "
            f"| {r['others_cpu_s']:,.1f} s | {r['load_before']} → {r['load_after']} |")
    return "\n".join(lines)


def _ratios(results: list[dict[str, Any]]) -> list[str]:
    out = []
    for n in sorted({r["papers"] for r in results}):
        now = next((r for r in results if r["papers"] == n and r["code"] == "now"), None)
        base = next((r for r in results if r["papers"] == n and r["code"] != "now"), None)
        if now is None or base is None:
            continue
        out.append(f"{n:,} papers: now / {base['code']}: "
                   f"wall {now['wall_s'] / base['wall_s']:.2f}x, "
                   f"CPU {now['cpu_s'] / base['cpu_s']:.2f}x, "
                   f"peak PSS {now['peak_pss_mib'] / base['peak_pss_mib']:.2f}x")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--abstracts", type=Path, default=DEFAULT_ABSTRACTS)
    parser.add_argument("--sizes", default="1000,4000,0", help="comma-separated; 0 = all")
    parser.add_argument("--baseline", default=BASELINE, help="commit to compare with")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--keep", type=Path, help="keep the store of this checkout's largest "
                        "build here (for `paperkg stats --top 15 --store DIR`)")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--report", type=Path, nargs="+", metavar="LOG",
                        help="print the table and ratios of the result lines of earlier runs' "
                        "output (one JSON object a line) instead of building")
    parser.add_argument("--sample", nargs=2, metavar=("N", "FILE"),
                        help="only write the first N abstracts of the order used here to FILE "
                        "(outside the repository)")
    args = parser.parse_args(argv)
    if args.sample:
        write_sample(read_sample(args.abstracts), int(args.sample[0]), Path(args.sample[1]))
        return 0
    if args.report:
        results = [json.loads(line) for log in args.report
                   for line in log.read_text(encoding="utf-8").splitlines()
                   if line.startswith('{"papers"')]
        print(_table(results))
        print("\n".join(_ratios(results)))
        return 0

    records = read_sample(args.abstracts)
    sizes = [int(s) or len(records) for s in args.sizes.split(",")]
    temp = Path(tempfile.mkdtemp(prefix="paperkg-cost-"))
    base_code = temp / "baseline"
    subprocess.run(["git", "worktree", "add", "--detach", str(base_code), args.baseline],
                   cwd=ROOT, check=True, capture_output=True)
    label = subprocess.run(["git", "rev-parse", "--short", args.baseline], cwd=ROOT, check=True,
                           capture_output=True, text=True).stdout.strip()
    results: list[dict[str, Any]] = []
    try:
        for index, n in enumerate(sizes):
            corpus = temp / f"sample-{n}.jsonl"
            write_sample(records, n, corpus)
            order = [("now", ROOT), (label, base_code)]
            if index % 2:
                order.reverse()
            for name, code in order:
                workdir = temp / f"{name}-{n}"
                workdir.mkdir()
                result = {"papers": n, "code": name,
                          **run_build(code, corpus, workdir, args.workers)}
                results.append(result)
                print(json.dumps(result), flush=True)
                if args.keep and name == "now" and n == max(sizes):
                    shutil.rmtree(args.keep, ignore_errors=True)
                    shutil.copytree(workdir / "store", args.keep)
                shutil.rmtree(workdir)
            corpus.unlink()
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(base_code)], cwd=ROOT,
                       capture_output=True)
        shutil.rmtree(temp, ignore_errors=True)
    print(_table(results))
    print("\n".join(_ratios(results)))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
