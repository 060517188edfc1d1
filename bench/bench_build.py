"""Build benchmarks: every figure is a ratio against a baseline measured in the same run.

    python bench/bench_build.py                 # 2,000 synthetic abstracts, a few minutes
    python bench/bench_build.py --papers 100000 --json bench/results-100k.json
    python bench/bench_build.py --papers 100000 --skip pipe,serial,extract,load,exports

The second form builds only with `--workers 2` and measures the add against that build (a
faster rebuild than the serial one, so the add's ratio is, again, a lower bound).

Stages (each timed in a fresh process that has already loaded the spaCy pipeline, so no
stage pays for imports or model loading, and peak memory is the stage's own: `peak_rss_mb`
the largest single process, `peak_tree_rss_mb` the stage's process and its workers together,
`peak_tree_pss_mb` the same counting each page the forked workers share with their parent once
(the memory the build needs), sampled every half second; `cpu_s` and `workers_cpu_s` the CPU
time of the stage's process, all its threads, and of its worker processes):

  pipe       spaCy `nlp.pipe` alone over the abstracts: the floor any build stands on
             (`graph.nlp.load`'s pipeline); and the same with spaCy's own attribute ruler,
             which `graph.nlp.load` replaces by an index that gives the same annotations
  build-1    `graph.build.build` serial (read corpus, extract, resolve, RDF, store; no exports)
  build-2    the same with --workers 2
  extract-*  extraction alone (500 papers): serial, our worker processes, and spaCy's
             `nlp.pipe(n_process=2)` with the extractors run on the returned Docs
  load       `EmbeddedStore.replace_all_nquads` of the build's quads as an N-Quads file (the
             build's own load) vs `oxigraph load` of the same file (the server's bulk loader,
             a subprocess); also `replace_all` of them as Python objects, up to 2M quads
  exports    `graph.export.write_store_exports` of the serial build's store (six formats and
             the report, sorted on disk)
  add-10     `graph.build.incremental.add_papers` of 10 new papers to the N-paper store vs the
             serial full build of N papers measured above (a rebuild of N+10 takes longer,
             so the ratio printed is a lower bound)

Targets (DESIGN §6): build throughput >= 0.75 of nlp.pipe; workers 2 >= 1.6x serial; store
load >= 0.5 of `oxigraph load`; incremental add >= 100x faster than a rebuild; peak memory
(PSS) of the build <= 2 GB at 100k papers.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

BASE = "https://w3id.org/paperkg/id/"
EXTRACT_SAMPLE = 500


# -- running a stage in a clean process -------------------------------------------------------


def _peak_rss_mb() -> float:
    # ru_maxrss is in KiB on Linux; a child's worker processes count as its children.
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(own, children) / 1024


def _cpu_seconds() -> tuple[float, float]:
    """User + system CPU seconds of this process (all its threads: the loader's too) and of
    its finished child processes (the workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def _child(stage: Callable[..., dict[str, Any]], args: tuple, model: str, queue: Any) -> None:
    try:
        from graph import nlp as nlp_loader
        from graph.extractors.pipeline import extract_papers
        from graph.model import Paper

        # Outside the clock, like a warm server: the pipeline, and the extractors' lexicons
        # (built on first use) by one throwaway abstract.
        nlp = nlp_loader.load(model)
        extract_papers([Paper(key="warm-up", abstract="We propose a network for parsing.")],
                       nlp=nlp)
        own, workers = _cpu_seconds()
        result = stage(*args)
        after, workers_after = _cpu_seconds()
        # CPU time against wall time says whether the cores were busy or waiting
        result["cpu_s"] = round(after - own, 1)
        result["workers_cpu_s"] = round(workers_after - workers, 1)
        result["peak_rss_mb"] = round(_peak_rss_mb(), 1)
        queue.put(result)
    except BaseException as exc:  # noqa: BLE001 - report anything to the parent
        queue.put({"error": f"{type(exc).__name__}: {exc}"})
        raise


def _tree_memory(pid: int) -> tuple[int, int]:
    """Resident bytes of a process and all its descendants (a build's worker processes):
    summed RSS, and summed PSS, which counts a page the forked workers share with their parent
    once in all, not once a process (Linux; the RSS sum where PSS cannot be read)."""
    import psutil

    try:
        root = psutil.Process(pid)
        members = [root, *root.children(recursive=True)]
    except psutil.Error:
        return 0, 0
    rss = pss = 0
    for member in members:
        try:
            info = member.memory_full_info()
        except (psutil.Error, AttributeError):
            try:
                info = member.memory_info()
            except psutil.Error:
                continue
        rss += info.rss
        pss += getattr(info, "pss", info.rss)
    return rss, pss


def run_stage(stage: Callable[..., dict[str, Any]], *args: Any, model: str) -> dict[str, Any]:
    """Run `stage` in a fresh process; its figures plus the peak resident memory of that
    process together with its own workers, sampled every half second (`ru_maxrss` gives
    only the largest single process)."""
    import queue as queue_mod

    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    process = context.Process(target=_child, args=(stage, args, model, queue))
    process.start()
    peak = peak_pss = 0
    while True:
        rss, pss = _tree_memory(process.pid)
        peak, peak_pss = max(peak, rss), max(peak_pss, pss)
        try:
            result = queue.get(timeout=0.5)
            break
        except queue_mod.Empty:
            if not process.is_alive():
                raise SystemExit(f"stage {stage.__name__} died with status {process.exitcode}")
    process.join()
    if "error" in result:
        raise SystemExit(f"stage {stage.__name__} failed: {result['error']}")
    result["peak_tree_rss_mb"] = round(peak / 2**20, 1)
    result["peak_tree_pss_mb"] = round(peak_pss / 2**20, 1)
    return result


# -- the stages (run in the child) ------------------------------------------------------------


def _papers(corpus: str):
    from graph.corpus import read_corpus

    return read_corpus([corpus]).papers


def _timed_pipe(nlp, corpus: str) -> dict[str, Any]:
    texts = [paper.abstract for paper in _papers(corpus)]
    start = time.perf_counter()
    words = sum(len(doc) for doc in nlp.pipe(texts, batch_size=64))
    return {"seconds": time.perf_counter() - start, "papers": len(texts), "tokens": words}


def stage_pipe(corpus: str, model: str) -> dict[str, Any]:
    from graph import nlp as nlp_loader

    return _timed_pipe(nlp_loader.load(model), corpus)


def stage_pipe_stock(corpus: str, model: str) -> dict[str, Any]:
    """`stage_pipe` with spaCy's own attribute ruler (its Matcher) in place of the index
    `graph.nlp.load` gives it: the parse as the pipeline package ships it."""
    from graph import nlp as nlp_loader

    return _timed_pipe(nlp_loader.load_with_spacy_rules(model), corpus)


def stage_build(corpus: str, store: str, workers: int, model: str) -> dict[str, Any]:
    from graph.build import build

    start = time.perf_counter()
    result = build([corpus], out_dir=None, store=store, base=BASE, workers=workers,
                   spacy_model=model, progress=False)
    return {"seconds": time.perf_counter() - start, "papers": result.papers,
            "entities": result.entities, "quads": result.quads}


def stage_extract(corpus: str, mode: str, model: str) -> dict[str, Any]:
    from graph import extractors as registry
    from graph import nlp as nlp_loader
    from graph.extractors.pipeline import extract_doc, extract_papers

    papers = _papers(corpus)[:EXTRACT_SAMPLE]
    nlp = nlp_loader.load(model)
    start = time.perf_counter()
    if mode == "serial":
        out = extract_papers(papers, nlp=nlp)
    elif mode == "workers-2":
        from graph.build.processes import extract_parallel

        out = extract_parallel(papers, workers=2, spacy_model=model)
    else:  # spaCy parallelises the parse; the extractors run here on the returned Docs
        fns = [registry.get(name) for name in registry.DEFAULT_EXTRACTORS]
        out = [extract_doc(doc, fns)
               for doc in nlp.pipe((p.abstract for p in papers), n_process=2, batch_size=64)]
    return {"seconds": time.perf_counter() - start, "papers": len(out)}


def stage_load(nquads: str, store: str, objects: bool) -> dict[str, Any]:
    """`replace_all_nquads` of the file (Oxigraph's bulk loader), checking every IRI and, as
    a build loads its own text, leniently; when `objects`, `replace_all` of the same quads as
    Python objects."""
    from pyoxigraph import RdfFormat, parse

    from graph.store import EmbeddedStore

    target = EmbeddedStore(store)
    start = time.perf_counter()
    count = target.replace_all_nquads([Path(nquads)])
    result: dict[str, Any] = {"seconds": time.perf_counter() - start, "quads": count}
    start = time.perf_counter()
    target.replace_all_nquads([Path(nquads)], count=False, lenient=True)
    result["lenient_seconds"] = round(time.perf_counter() - start, 2)
    if objects:
        quads = list(parse(path=nquads, format=RdfFormat.N_QUADS))
        start = time.perf_counter()
        target.replace_all(quads)
        result["replace_all_seconds"] = round(time.perf_counter() - start, 2)
    target.close()
    return result


def stage_exports(store: str, out: str) -> dict[str, Any]:
    """All six export files and the report of the built store, sorted on disk."""
    from graph.export import write_store_exports
    from graph.store import EmbeddedStore

    source = EmbeddedStore(store, read_only=True)
    start = time.perf_counter()
    written = write_store_exports(source, out, report={})
    seconds = time.perf_counter() - start
    source.close()
    return {"seconds": seconds, "bytes": sum(p.stat().st_size for p in written)}


def stage_add(corpus: str, store: str, model: str) -> dict[str, Any]:
    from graph.build.incremental import add_papers
    from graph.store import EmbeddedStore

    papers = _papers(corpus)
    target = EmbeddedStore(store)
    start = time.perf_counter()
    result = add_papers(target, papers, base=BASE, spacy_model=model)
    seconds = time.perf_counter() - start
    target.close()
    return {"seconds": seconds, "added": len(result.added), "unchanged": len(result.unchanged)}


def dump_nquads(store: str, out: str) -> None:
    from pyoxigraph import RdfFormat, Store

    Store.read_only(str(Path(store).resolve())).dump(out, format=RdfFormat.N_QUADS)


# -- the run ----------------------------------------------------------------------------------


def _load() -> str:
    try:
        return " ".join(f"{v:.1f}" for v in os.getloadavg())
    except OSError:  # pragma: no cover - not Unix
        return "unknown"


def _ratio_line(name: str, value: float, target: str, ok: bool) -> str:
    return f"  {name:<46} {value:>9.2f}   target {target:<8} {'ok' if ok else 'MISSED'}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=2000, help="corpus size (default 2000)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--spacy-model", default=None)
    parser.add_argument("--skip", default="", help="comma-separated stages to skip: "
                        "pipe,serial,workers,extract,load,exports,add (without the serial "
                        "build, the --workers 2 build is the reference for the later stages)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="rounds of the pipe and build stages; ratios are the median of "
                             "the rounds' (default 1)")
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    parser.add_argument("--keep", type=Path, default=None, help="work folder to keep")
    args = parser.parse_args(argv)

    from bench.gen_corpus import Generator, write_jsonl
    from graph import nlp as nlp_loader

    model = args.spacy_model or nlp_loader.DEFAULT_MODEL
    skip = {s.strip() for s in args.skip.split(",") if s.strip()}
    work = args.keep or Path(tempfile.mkdtemp(prefix="paperkg-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    generator = Generator(args.seed)
    records = list(generator.papers(args.papers + 10))
    corpus = work / "corpus.jsonl"
    extra = work / "extra.jsonl"
    write_jsonl(records[: args.papers], corpus)
    write_jsonl(records[args.papers :], extra)
    figures: dict[str, Any] = {"papers": args.papers, "seed": args.seed, "cpus": os.cpu_count()}

    def report(name: str, result: dict[str, Any]) -> dict[str, Any]:
        figures[name] = result
        detail = ", ".join(f"{k}={v}" for k, v in result.items() if k != "seconds")
        print(f"{name:<22} {result['seconds']:>9.2f} s   {detail}", flush=True)
        return result

    print(f"paperkg build benchmark: {args.papers:,} synthetic abstracts (seed {args.seed}), "
          f"{os.cpu_count()} CPUs, load average {_load()}, work folder {work}", flush=True)
    pipe = stock = build1 = build2 = None
    store1, store2 = str(work / "store-1"), str(work / "store-2")
    rounds: list[dict[str, dict[str, Any]]] = []
    for n in range(args.repeat):
        # Rounds interleave the baseline and the builds, so a busier minute of the machine
        # weighs on both sides of each round's ratios.
        if args.repeat > 1:
            print(f"round {n + 1} of {args.repeat}", flush=True)
        if "pipe" not in skip:
            pipe = report("pipe", run_stage(stage_pipe, str(corpus), model, model=model))
            stock = report("pipe-stock-ruler", run_stage(stage_pipe_stock, str(corpus), model,
                                                         model=model))
        if "serial" not in skip:
            build1 = report("build-1", run_stage(stage_build, str(corpus), store1, 1, model,
                                                  model=model))
        if "workers" not in skip:
            build2 = report("build-2", run_stage(stage_build, str(corpus), store2, 2,
                                                  model, model=model))
        rounds.append({"pipe": pipe, "pipe-stock-ruler": stock, "build-1": build1,
                       "build-2": build2})
    figures["rounds"] = rounds
    if build1 is None:
        store1 = store2
    reference = build1 or build2
    if reference is None:
        raise SystemExit("--skip serial,workers leaves no build to measure")
    if "extract" not in skip:
        for mode in ("serial", "workers-2", "spacy-n_process-2"):
            report(f"extract-{mode}", run_stage(stage_extract, str(corpus), mode, model,
                                                model=model))
    load = oxload = None
    if "load" not in skip:
        nquads = str(work / "graph.nq")
        dump_nquads(store1, nquads)
        objects = reference["quads"] <= 2_000_000  # as Python objects: ~1.5 KB a quad
        load = report("load-nquads", run_stage(stage_load, nquads, str(work / "store-load"),
                                               objects, model=model))
        oxigraph = shutil.which("oxigraph") or str(Path(sys.executable).with_name("oxigraph"))
        oxload = {}
        for name, options in (("seconds", []), ("lenient_seconds", ["--lenient"])):
            start = time.perf_counter()
            subprocess.run([oxigraph, "load", *options, "--location",
                            str(work / f"store-ox{name}"), "--file", nquads],
                           check=True, capture_output=True)
            oxload[name] = round(time.perf_counter() - start, 2)
        oxload = report("load-oxigraph-cli", oxload)
    if "exports" not in skip:
        report("exports", run_stage(stage_exports, store1, str(work / "exports"), model=model))
    add = None
    if "add" not in skip:
        add = report("add-10", run_stage(stage_add, str(extra), store1, model, model=model))

    if build1 and build2 and ((build2["quads"], build2["entities"])
                              != (build1["quads"], build1["entities"])):
        # The extraction is identical by construction (tests/test_parallel.py); a difference
        # here means the code or the shipped models changed between the two stages.
        print("warning: build-1 and build-2 differ in quads/entities: did graph/ or data/models "
              "change during the run?", flush=True)
    figures["load_average_end"] = _load()
    print(f"\nload average at the end: {figures['load_average_end']}")
    print("\nratios (same run):")
    lines = []

    def per_round(top: str, bottom: str) -> tuple[float, str]:
        """The median over the rounds of `top`'s seconds / `bottom`'s, and the rounds' own."""
        values = sorted(r[top]["seconds"] / r[bottom]["seconds"] for r in rounds)
        label = "" if len(values) == 1 else (
            f" (median of {len(values)} rounds: " + ", ".join(f"{v:.2f}" for v in values) + ")")
        return statistics.median(values), label

    if pipe and build1:
        throughput, label = per_round("pipe", "build-1")
        lines.append(_ratio_line("build throughput / nlp.pipe alone" + label, throughput,
                                 ">= 0.75", throughput >= 0.75))
    if stock and build1:
        throughput, label = per_round("pipe-stock-ruler", "build-1")
        lines.append(_ratio_line("build throughput / nlp.pipe with spaCy's attribute ruler "
                                 "(info)" + label, throughput, "(info)", True))
    if pipe and stock:
        ratio, label = per_round("pipe-stock-ruler", "pipe")
        lines.append(_ratio_line("nlp.pipe speed-up of the indexed attribute rules (info)"
                                 + label, ratio, "(info)", True))
    if pipe and build2:
        throughput, label = per_round("pipe", "build-2")
        lines.append(_ratio_line("build --workers 2 throughput / nlp.pipe (info)" + label,
                                 throughput, "(info)", True))
    if build1 and build2:
        speedup, label = per_round("build-1", "build-2")
        lines.append(_ratio_line("build --workers 2 speed-up over serial" + label, speedup,
                                 ">= 1.6", speedup >= 1.6))
    cores = os.cpu_count() or 1
    for name, result in (("serial", build1), ("--workers 2", build2)):
        if result:
            # 1.0: every core busy for the whole build
            busy = (result["cpu_s"] + result["workers_cpu_s"]) / (cores * result["seconds"])
            lines.append(_ratio_line(f"build {name}: CPU time / ({cores} cores x wall time)",
                                     busy, "(info)", True))
    if build1:
        # The serial build already loads the store on a second thread. Its CPU time spread
        # over every core, with none added, is the best a parallel build can do.
        ceilings = sorted(cores * r["build-1"]["seconds"]
                          / (r["build-1"]["cpu_s"] + r["build-1"]["workers_cpu_s"])
                          for r in rounds)
        lines.append(_ratio_line(f"ceiling of a {cores}-core speed-up over the serial build "
                                 "(its wall time x cores / its CPU time; median)",
                                 statistics.median(ceilings), "(info)", True))
    if "extract-serial" in figures:
        serial = figures["extract-serial"]["seconds"]
        lines.append(_ratio_line("extraction: workers 2 speed-up", serial /
                                 figures["extract-workers-2"]["seconds"], "(info)", True))
        lines.append(_ratio_line("extraction: spaCy n_process=2 speed-up", serial /
                                 figures["extract-spacy-n_process-2"]["seconds"], "(info)", True))
    if load and oxload:
        ratio = oxload["seconds"] / load["seconds"]
        lines.append(_ratio_line("store load speed / `oxigraph load`", ratio, ">= 0.5",
                                 ratio >= 0.5))
        lines.append(_ratio_line("  both lenient (the build's load / `oxigraph load "
                                 "--lenient`)", oxload["lenient_seconds"]
                                 / load["lenient_seconds"], "(info)", True))
    if add:
        ratio = reference["seconds"] / add["seconds"]
        lines.append(_ratio_line("incremental add of 10 / full rebuild, speed-up", ratio,
                                 ">= 100", ratio >= 100))
    if load and load.get("replace_all_seconds"):
        lines.append(_ratio_line("replace_all of Python quads / replace_all_nquads, time",
                                 load["replace_all_seconds"] / load["seconds"], "(info)", True))
    which = "serial" if build1 else "--workers 2"
    # in MiB; the target read strictly: 2 GB = 2e9 bytes = 1.86 GiB
    pss_gb = reference["peak_tree_pss_mb"] * 2**20 / 1e9
    lines.append(_ratio_line(f"peak memory (PSS) of the {which} build with its workers, GB of "
                             f"10^9 bytes ({args.papers:,} papers)", pss_gb, "<= 2", pss_gb <= 2))
    rss_gb = reference["peak_tree_rss_mb"] * 2**20 / 1e9
    lines.append(_ratio_line("  the same, RSS summed over the processes", rss_gb,
                             "(info)", True))
    print("\n".join(lines))
    figures["ratios"] = [line.strip() for line in lines]
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    if args.keep is None:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
