"""How far this machine lets a two-process build scale, measured piece by piece.

    python bench/bench_scaling.py                # 600 synthetic abstracts, about two minutes
    python bench/bench_scaling.py --papers 200   # the quick version

Each figure is a ratio measured in the same run: the same work done once serially and once
split over two forked processes (a CPU-bound pure-Python loop, spaCy's `nlp.pipe` alone, and
`nlp.pipe` followed by the extractors, as each `--workers` process runs them; the serial
runs also give the extractors' share of the time against the parse's), and the CPU
time Oxigraph's bulk loader spends on the N-Quads of those papers' graph, against the CPU
time of parsing the papers. bench/README.md ("Why the two 2k targets are missed") reads
these figures.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

BASE = "https://w3id.org/paperkg/id/"
#: one unit of the pure-Python loop (about a second here)
LOOP_STEPS = 8_000_000

# The work each process does; set before the fork, so the children inherit it.
_state: dict[str, object] = {}


def _loop(units: Sequence[object]) -> float:
    start = time.perf_counter()
    total = 0
    for i in range(LOOP_STEPS * len(units)):
        total += i * i % 7
    return time.perf_counter() - start


def _pipe(texts: Sequence[str]) -> float:
    nlp = _state["nlp"]
    start = time.perf_counter()
    for _ in nlp.pipe(texts, batch_size=64):
        pass
    return time.perf_counter() - start


def _extract(papers: Sequence) -> float:
    from graph.extractors.pipeline import extract_papers

    start = time.perf_counter()
    extract_papers(papers, nlp=_state["nlp"])
    return time.perf_counter() - start


def scaling(work: Callable[[Sequence], float], items: Sequence) -> dict[str, float]:
    """Serial seconds for `items`, and seconds with each half in its own forked process."""
    serial = time.perf_counter()
    work(items)
    serial = time.perf_counter() - serial
    half = len(items) // 2
    context = multiprocessing.get_context("fork")
    with context.Pool(2) as pool:
        start = time.perf_counter()
        pool.map(work, [items[:half], items[half:]], chunksize=1)
        split = time.perf_counter() - start
    return {"serial": serial, "two_processes": split, "speed_up": serial / split}


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def load_cpu(papers: Sequence, folder: Path) -> dict[str, float]:
    """CPU seconds of parsing `papers`, of writing their graph's N-Quads, and of bulk loading
    those into a new on-disk store (pyoxigraph runs the load on this thread)."""
    import pyoxigraph

    from graph import rdf
    from graph.extractors.pipeline import extract_papers
    from graph.resolve import resolve
    from graph.store import NQuadsFiles

    start = _cpu()
    for _ in _state["nlp"].pipe([p.abstract for p in papers], batch_size=64):
        pass
    parse = _cpu() - start
    resolved = resolve(extract_papers(papers, nlp=_state["nlp"]))
    start = _cpu()
    (folder / "nq").mkdir()
    with NQuadsFiles(folder / "nq", "graph") as out:
        out.write(list(dict.fromkeys(rdf.corpus_level_lines(resolved, base=BASE))))
        for key in sorted(resolved.extractions):
            out.write(rdf.paper_lines(resolved.extractions[key], resolved.links.get(key, []),
                                      base=BASE, entities=resolved.entities))
    files = out.paths
    write = _cpu() - start
    lines = sum(1 for path in files for _ in path.open("rb"))
    store = pyoxigraph.Store(str(folder / "store"))
    start = _cpu()
    for path in files:
        store.bulk_load(path=str(path), format=pyoxigraph.RdfFormat.N_QUADS)
    load = _cpu() - start
    return {"quads": lines, "parse_cpu": parse, "write_cpu": write, "load_cpu": load,
            "load_per_parse": load / parse}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=600, help="corpus size (default 600)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)

    from bench.gen_corpus import generate
    from graph import nlp as nlp_loader
    from graph.extractors.pipeline import extract_papers
    from graph.model import Paper

    records = generate(args.papers, seed=args.seed)
    papers = [Paper(key=str(r["id"]), abstract=str(r["abstract"]), title=str(r["title"]))
              for r in records]
    nlp = nlp_loader.load()
    _state["nlp"] = nlp
    # Outside the clock: the extractors' lexicons and matchers, built on first use.
    extract_papers(papers[:2], nlp=nlp)
    print(f"paperkg scaling benchmark: {len(papers)} synthetic abstracts (seed {args.seed}), "
          f"{os.cpu_count()} CPUs, load average {' '.join(f'{v:.1f}' for v in os.getloadavg())}",
          flush=True)
    rows = [
        ("pure-Python loop", scaling(_loop, [None, None])),
        ("nlp.pipe alone", scaling(_pipe, [p.abstract for p in papers])),
        ("nlp.pipe + extractors", scaling(_extract, papers)),
    ]
    for name, row in rows:
        print(f"  {name:<24} serial {row['serial']:7.2f} s   two processes "
              f"{row['two_processes']:7.2f} s   speed-up {row['speed_up']:.2f}x", flush=True)
    parse, both = rows[1][1]["serial"], rows[2][1]["serial"]
    print(f"  the extractors take {(both - parse) / parse:.2f} of the parse's time (serial runs)")
    with tempfile.TemporaryDirectory(prefix="paperkg-scaling-") as folder:
        load = load_cpu(papers, Path(folder))
    print(f"  bulk load of {load['quads']:,} quads: {load['load_cpu']:.2f} s of CPU, "
          f"{load['load_per_parse']:.2f} of the parse's {load['parse_cpu']:.2f} s "
          f"(writing the N-Quads: {load['write_cpu']:.2f} s)")
    print(f"load average at the end: {' '.join(f'{v:.1f}' for v in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
