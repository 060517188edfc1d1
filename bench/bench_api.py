"""Graph API benchmark: median latency of every /api route over HTTP on loopback, on the
generated paper graph of bench_sparql.py.

    python bench/bench_api.py --papers 2000
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_sparql import Server, median_ms, write_graph  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cli.add_argument("--papers", type=int, default=20_000)
    cli.add_argument("--repeat", type=int, default=30)
    args = cli.parse_args(argv)

    import pyoxigraph

    work = Path(tempfile.mkdtemp(prefix="paperkg-bench-api-"))
    try:
        triples = write_graph(args.papers, work / "graph.nt")
        store = pyoxigraph.Store(str(work / "store"))
        store.bulk_load(path=str(work / "graph.nt"), format=pyoxigraph.RdfFormat.N_TRIPLES)
        store.flush()
        del store
        server = Server(str(work / "store"))
        try:
            start = time.perf_counter()
            server.get("/api/papers?per_page=1")  # builds the projection
            first = time.perf_counter() - start
            keys = [f"p{n:07d}" for n in range(0, args.papers, max(1, args.papers // 8))][:8]
            routes = {
                "/api/papers?page=N": [f"/api/papers?page={n + 1}&per_page=50" for n in range(8)],
                "/api/papers/{key}": [f"/api/papers/{key}" for key in keys],
                "/api/entities?type=method": ["/api/entities?type=method&limit=50"],
                "/api/entities/{type}/{slug}": [f"/api/entities/dataset/dataset-{n}"
                                                for n in range(8)],
                "/api/search?q=": [f"/api/search?q={q}"
                                   for q in ("method%201", "dataset", "graph")],
                "/api/neighbourhood (depth 2)": [
                    f"/api/neighbourhood?node=paper/{key}&depth=2&limit=100" for key in keys],
                "/api/path": [f"/api/path?from=paper/{a}&to=paper/{b}"
                              for a, b in zip(keys, reversed(keys), strict=True)],
                "/api/similar?k=10": [f"/api/similar?paper={key}&k=10" for key in keys],
                "/id/{type}/{slug} (Turtle)": [f"/id/paper/{key}" for key in keys],
            }
            print(f"{args.papers:,} papers, {triples:,} triples; first request (projection "
                  f"build) {first:.1f} s")
            print()
            print("| route | median (ms) |")
            print("| --- | ---: |")
            for name, paths in routes.items():
                accept = "text/turtle" if name.startswith("/id/") else "application/json"
                ms = median_ms(lambda path, a=accept: server.get(path, a), paths, args.repeat)
                print(f"| `{name}` | {ms:.2f} |")
            peak, tree = server.peak_rss_mb()
            print()
            print(f"server peak RSS: largest process {peak:.0f} MiB, whole tree {tree:.0f} MiB")
        finally:
            server.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
