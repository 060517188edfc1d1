"""Where a build's wall time goes: the moment each phase ends, serial and with --workers 2.

    python bench/build_phases.py                       # 2,000 synthetic abstracts
    python bench/build_phases.py --papers 500 --workers 1,2,4

Each build runs in a fresh process that has already loaded the spaCy pipeline (as in
bench_build.py). The phases are marked by wrapping the build's own steps, so nothing else
changes:

  extract    the last paper extracted (serial) or the last chunk back from the workers
  resolve    the resolver done (the one step that needs every paper)
  linked     the linked lines written
  loaded     the last N-Quads file loaded into the new store generation
  report     the report counted in the loaded graph
  end        the store switched to the new graph

The tail (everything after `extract`) runs with the workers gone: its length is what a
parallel build cannot spread over the cores.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path
from queue import Empty
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

PHASES = ("extract", "resolve", "linked", "loaded", "report", "end")


def _cpu() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def _timed_build(corpus: str, store: str, workers: int, model: str, queue: Any) -> None:
    import graph.build as build_module
    import graph.resolve as resolve_module
    import graph.store.bulk as store_module
    from graph import nlp as nlp_loader
    from graph.build.executors import SerialExecutor
    from graph.report import ReportBuilder

    nlp_loader.load(model)
    marks: dict[str, tuple[float, float, float]] = {}

    def mark(name: str) -> None:
        marks[name] = (time.perf_counter() - start, *_cpu())

    def after(function, name, before=None):
        def wrapped(*args, **kwargs):
            if before:
                mark(before)
            result = function(*args, **kwargs)
            mark(name)
            return result
        return wrapped

    def linked(function):
        def wrapped(*args, **kwargs):
            yield from function(*args, **kwargs)
            mark("linked")
        return wrapped

    # extraction ends where the resolver starts
    resolve_module.resolve = after(resolve_module.resolve, "resolve", before="extract")
    SerialExecutor.write_linked = linked(SerialExecutor.write_linked)  # type: ignore[method-assign]
    store_module._load_while_writing = after(store_module._load_while_writing, "loaded")
    ReportBuilder.count_store = after(ReportBuilder.count_store, "report")
    cpu0 = _cpu()
    start = time.perf_counter()
    build_module.build([corpus], out_dir=None, store=store, workers=workers, spacy_model=model)
    mark("end")
    queue.put({name: (wall, own - cpu0[0], kids - cpu0[1])
               for name, (wall, own, kids) in marks.items()})


def run(corpus: str, store: str, workers: int, model: str) -> dict[str, tuple[float, ...]]:
    from graph.build.processes import start_context

    # fork (the pipeline already imported) only from a single-threaded process, as the build
    # itself does
    context = start_context()
    queue = context.Queue()
    process = context.Process(target=_timed_build, args=(corpus, store, workers, model, queue))
    process.start()
    while True:
        try:
            marks = queue.get(timeout=1)
            break
        except Empty:
            if not process.is_alive():
                raise SystemExit(f"the build exited with status {process.exitcode}") from None
    process.join()
    return marks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--workers", default="1,2", help="comma-separated worker counts")
    parser.add_argument("--spacy-model", default=None)
    args = parser.parse_args(argv)

    from bench.gen_corpus import generate, write_jsonl
    from graph import nlp as nlp_loader

    model = args.spacy_model or nlp_loader.DEFAULT_MODEL
    with tempfile.TemporaryDirectory(prefix="paperkg-phases-") as work:
        corpus = str(Path(work) / "corpus.jsonl")
        write_jsonl(generate(args.papers, seed=args.seed), Path(corpus))
        print(f"build phases: {args.papers:,} synthetic abstracts (seed {args.seed}); "
              "seconds since the build started, and CPU (build process + workers) by then")
        for workers in (int(w) for w in args.workers.split(",")):
            marks = run(corpus, str(Path(work) / f"store-{workers}"), workers, model)
            cells = [f"{name} {marks[name][0]:6.2f} s ({marks[name][1]:.1f} + {marks[name][2]:.1f})"
                     for name in PHASES if name in marks]
            tail = marks["end"][0] - marks["extract"][0]
            print(f"workers {workers}: " + ", ".join(cells) + f"; tail {tail:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
