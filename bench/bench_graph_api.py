"""Graph API at scale: first and warm request times and the server's memory, on generated
paper graphs of 1M and 10M triples (bench_sparql.py's generator, ~12 triples a paper).

    python bench/bench_graph_api.py --triples 1000000,10000000

For each size: generate N-Triples, bulk load an embedded store, build its search index (the
step `paperkg build` ends with), start `api.serve` (one worker) and time, over HTTP on
loopback, the first request of each kind and the median of warm ones; then the server's peak
resident memory. Last, the ratios between the sizes (time and memory at 10M over 1M: flat
means near 1). Targets (issue 24): first ≤ 1 s, warm ≤ 100 ms, search warm ≤ 50 ms, memory
flat.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_sparql import Server, write_graph  # noqa: E402

REQUESTS = {
    # A hub: the most used method, linked by about a tenth of the papers.
    "neighbourhood hub d2": "/api/neighbourhood?node=method/method-0&depth=2&limit=200",
    "neighbourhood d2": "/api/neighbourhood?node=method/method-300&depth=2&limit=200",
    "neighbourhood paper d3": "/api/neighbourhood?node=paper/p0000042&depth=3&limit=200",
    "path": "/api/path?from=paper/p0000042&to=paper/p0000777",
    "similar": "/api/similar?paper=p0000042&k=10",
    "entity": "/api/entities/dataset/dataset-5",
    "entities": "/api/entities?type=method&limit=50",
    "papers page": "/api/papers?page=3&per_page=20",
    "search": "/api/search?q=contrastive%20graph",
    "search short": "/api/search?q=me",
}


def measure(triples: int, repeat: int, work: Path, reuse: bool = False) -> dict[str, float]:
    import pyoxigraph

    from graph.network import search_index
    from graph.store import EmbeddedStore

    papers = max(1, triples // 12)
    location = work / f"store-{triples}"
    start = time.perf_counter()
    if reuse and location.exists():  # a store an earlier run of this size left in --workdir
        db = pyoxigraph.Store.read_only(str(location))
        count = len(db)
        del db
    else:
        source = work / f"graph-{triples}.nt"
        count = write_graph(papers, source)
        db = pyoxigraph.Store(str(location))
        db.bulk_load(path=str(source), format=pyoxigraph.RdfFormat.N_TRIPLES)
        db.flush()
        del db
        source.unlink()
    load_s = time.perf_counter() - start
    start = time.perf_counter()
    store = EmbeddedStore(str(location), read_only=True)
    search_index.ensure_index(store)
    store.close()
    index_s = time.perf_counter() - start
    print(f"\n{count:,} triples ({papers:,} papers): load {load_s:.1f} s, "
          f"search index {index_s:.1f} s")
    figures: dict[str, float] = {"triples": count, "index_s": index_s}
    server = Server(str(location))
    try:
        print(f"  {'request':24} {'first ms':>9} {'warm ms':>8}")
        for name, path in REQUESTS.items():
            start = time.perf_counter()
            server.get(path)
            first = (time.perf_counter() - start) * 1000
            times = []
            for _ in range(repeat):
                start = time.perf_counter()
                server.get(path)
                times.append((time.perf_counter() - start) * 1000)
            warm = statistics.median(times)
            figures[f"{name} first"] = first
            figures[f"{name} warm"] = warm
            print(f"  {name:24} {first:9.1f} {warm:8.1f}")
        largest, tree = server.peak_rss_mb()
        figures["rss_mb"] = tree
        print(f"  server peak memory: {tree:.0f} MiB (largest process {largest:.0f} MiB)")
    finally:
        server.close()
    return figures


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cli.add_argument("--triples", default="1000000,10000000",
                     help="comma-separated store sizes in triples")
    cli.add_argument("--repeat", type=int, default=20, help="warm requests per kind")
    cli.add_argument("--workdir", help="keep the stores here (default: a temporary folder)")
    cli.add_argument("--reuse", action="store_true",
                     help="use the stores (and search indexes) an earlier run left in --workdir")
    args = cli.parse_args(argv)
    sizes = [int(part) for part in args.triples.split(",") if part.strip()]
    work = Path(args.workdir) if args.workdir else Path(tempfile.mkdtemp(prefix="paperkg-gapi-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        results = [measure(size, args.repeat, work, args.reuse and bool(args.workdir))
                   for size in sizes]
    finally:
        if not args.workdir:
            shutil.rmtree(work, ignore_errors=True)
    if len(results) > 1:
        small, large = results[0], results[-1]
        scale = large["triples"] / small["triples"]
        print(f"\nratios, {large['triples']:,.0f} over {small['triples']:,.0f} triples "
              f"({scale:.1f}x the data):")
        print(f"  server peak memory: {large['rss_mb'] / small['rss_mb']:.2f}")
        for name in REQUESTS:
            print(f"  {name:24} first {large[name + ' first'] / small[name + ' first']:6.2f}"
                  f"   warm {large[name + ' warm'] / small[name + ' warm']:6.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
