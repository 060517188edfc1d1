"""Where a build's store load spends its CPU, and what the number of `bulk_load` calls costs.

    python bench/bench_store_load.py                      # 300 generated abstracts, ~1 min
    python bench/bench_store_load.py --papers 20000       # ~15 min

1. Builds the corpus with `--workers 2` and splits the build process's CPU time into its main
   thread (the chunks coming back, the resolver, the linked lines, the report), the loader
   thread inside its `bulk_load` calls, and the rest: the threads of Oxigraph and RocksDB.
2. Loads the built graph's N-Quads into new stores, leniently as a build does: in one
   `bulk_load` call (the baseline), and in calls of `--lines` lines (the build's file size by
   default), printing wall time, CPU time and peak RSS of each, and the ratios to the
   baseline. Each load runs in a fresh process so that its peak RSS is its own.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def build_split(corpus: str, store: str) -> dict[str, float]:
    """The `--workers 2` build of `corpus`, its build process's CPU split three ways."""
    import graph.store as store_module
    from graph import nlp
    from graph.build import build

    nlp.load()
    real = store_module._bulk_load
    loader = {"cpu": 0.0, "calls": 0}

    def timed(db, item, location, lenient=False):
        start = time.thread_time()
        try:
            real(db, item, location, lenient)
        finally:
            loader["cpu"] += time.thread_time() - start
            loader["calls"] += 1

    store_module._bulk_load = timed
    start, cpu, main = time.perf_counter(), time.process_time(), time.thread_time()
    result = build([corpus], out_dir=None, store=store, workers=2)
    cpu, main = time.process_time() - cpu, time.thread_time() - main
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"seconds": time.perf_counter() - start, "quads": result.quads, "cpu": cpu,
            "main": main, "loader": loader["cpu"], "calls": loader["calls"],
            "rest": cpu - main - loader["cpu"],
            "workers": children.ru_utime + children.ru_stime}


def _load(files: list[str], folder: str, queue) -> None:
    import pyoxigraph

    db = pyoxigraph.Store(folder)
    start, cpu = time.perf_counter(), time.process_time()
    for path in files:
        db.bulk_load(path=path, format=pyoxigraph.RdfFormat.N_QUADS, lenient=True)
    db.flush()
    queue.put({"seconds": time.perf_counter() - start, "cpu": time.process_time() - cpu,
               "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024})


def timed_load(files: list[str], folder: str) -> dict[str, float]:
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    process = context.Process(target=_load, args=(files, folder, queue))
    process.start()
    result = queue.get()
    process.join()
    return result


def split_file(path: Path, lines: int, folder: Path) -> list[str]:
    parts: list[str] = []
    with open(path, "rb") as source:
        out = None
        for n, line in enumerate(source):
            if n % lines == 0:
                if out is not None:
                    out.close()
                parts.append(str(folder / f"part-{len(parts):05d}.nq"))
                out = open(parts[-1], "wb")  # noqa: SIM115 - closed above or below
            out.write(line)
        if out is not None:
            out.close()
    return parts


def main(argv: list[str] | None = None) -> int:
    from graph.store import STREAM_FILE_LINES

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--lines", type=int, default=STREAM_FILE_LINES,
                        help="lines of each call in the split load (default: a build's files)")
    args = parser.parse_args(argv)

    import pyoxigraph

    from bench.gen_corpus import Generator, write_jsonl

    with tempfile.TemporaryDirectory(prefix="paperkg-bench-load-") as name:
        work = Path(name)
        corpus = work / "corpus.jsonl"
        write_jsonl(Generator(args.seed).papers(args.papers), corpus)
        split = build_split(str(corpus), str(work / "store"))
        print(f"build of {args.papers:,} papers, --workers 2: {split['seconds']:.1f} s, "
              f"{split['quads']:,} quads, {split['calls']} bulk_load calls")
        print(f"  build process CPU {split['cpu']:.1f} s: main thread {split['main']:.1f} s, "
              f"loader thread in bulk_load {split['loader']:.1f} s, Oxigraph's and RocksDB's "
              f"threads {split['rest']:.1f} s; the workers {split['workers']:.1f} s")
        nquads = work / "graph.nq"
        pyoxigraph.Store.read_only(str((work / "store").resolve())).dump(
            str(nquads), format=pyoxigraph.RdfFormat.N_QUADS)
        whole = timed_load([str(nquads)], str(work / "one"))
        parts = split_file(nquads, args.lines, work)
        pieces = timed_load(parts, str(work / "split"))
        os.unlink(nquads)
        print(f"\nloading the {split['quads']:,} quads into a new store, leniently:")
        for label, figures in (("1 call", whole),
                               (f"{len(parts)} calls of {args.lines:,} lines", pieces)):
            print(f"  {label:<28} wall {figures['seconds']:7.1f} s   CPU "
                  f"{figures['cpu']:7.1f} s   peak RSS {figures['rss_mb']:7.0f} MiB")
        print("\nratios (same run):")
        print(f"  CPU of the split load / one call          {pieces['cpu'] / whole['cpu']:6.2f}")
        print(f"  wall time of the split load / one call    "
              f"{pieces['seconds'] / whole['seconds']:6.2f}")
        print(f"  peak RSS of the split load / one call     "
              f"{pieces['rss_mb'] / whole['rss_mb']:6.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
