"""Where a server worker's memory goes: the app in one process, one class of routes at a time.

    .venv/bin/python bench/memory_routes.py --routes neighbourhood,pages --seconds 40 [--store DIR]

Builds the app (`api.create_app`) over a store (without --store, the 300 papers of
`bench/load_test.py`'s corpus, built in a temporary folder), then runs `--threads` threads that
each loop over the chosen routes through Flask's test client, as a server worker's app threads
would, and every `--sample-every` seconds prints the process's resident memory and what glibc's
allocator holds (`mallinfo2`): bytes in use, free bytes kept in its heaps, the heaps' size.
Memory that Python allocates is flat after the first requests (tracemalloc of the server
workers, docs/security.md), so a rise of "in use" is native: SQLite's and the store's caches.
`--sqlite-cache-kib N` sets SQLite's page cache of each search-index connection (one per app
thread, `graph.network.search_queries`) to N KiB, SQLite's default being 2,000, to measure
that cache's share.

Route classes: sparql (cheap SELECT and ASK queries, run in the process as the hot path does),
search, neighbourhood (depth 1 of papers and entities), pages (home, paper and entity pages,
a paper's JSON). Rate limits are off: the threads share one client address.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import random
import sqlite3
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import quote, urlencode

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.load_test import CHEAP_SPARQL, CHEAP_SPARQL_MORE, build_store  # noqa: E402

ROUTES = ("sparql", "search", "neighbourhood", "pages")
ACCEPT = "application/sparql-results+json, application/json, text/html"


class MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]


def allocator() -> tuple[float, float, float] | None:
    """MiB in use, free within the heaps, and the heaps' size (all arenas), or None where the
    C library has no `mallinfo2` (glibc before 2.33, or not glibc)."""
    try:
        function = ctypes.CDLL("libc.so.6").mallinfo2
    except (OSError, AttributeError):
        return None
    function.restype = MallInfo2
    info = function()
    mib = 1 << 20
    return info.uordblks / mib, info.fordblks / mib, info.arena / mib


def resident_mib() -> float:
    with open(f"/proc/{os.getpid()}/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / (1 << 20)


def route_paths(client, routes: Sequence[str]) -> list[str]:
    papers = [p["key"] for p in client.get("/api/papers?limit=20").get_json()["papers"]]
    entities = [e["id"] for e in client.get("/api/entities?limit=20").get_json()["entities"]]
    by_class = {
        "sparql": ["/sparql?" + urlencode({"query": query})
                   for query in (CHEAP_SPARQL, *CHEAP_SPARQL_MORE)],
        "search": ["/api/search?q=network", "/api/search?q=bench", "/search?q=transformer"],
        "neighbourhood": [f"/api/neighbourhood?node=paper/{quote(key)}&depth=1" for key in papers]
        + [f"/api/neighbourhood?node={quote(ref)}&depth=1" for ref in entities],
        "pages": ["/", *(f"/paper/{quote(key)}" for key in papers),
                  *(f"/entity/{quote(ref)}" for ref in entities),
                  *(f"/api/papers/{quote(key)}" for key in papers)],
    }
    return [path for name in routes for path in by_class[name]]


def small_page_cache(kib: int) -> None:
    """Every SQLite connection opened from now on in this process gets a `kib` KiB page cache."""
    connect = sqlite3.connect

    def connect_small(*args, **kwargs):
        db = connect(*args, **kwargs)
        db.execute(f"PRAGMA cache_size = -{int(kib)}")
        return db

    sqlite3.connect = connect_small  # type: ignore[assignment]


def _routes(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in ROUTES]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"--routes {text!r}: expected names among {', '.join(ROUTES)}")
    return names


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", help="a built store folder (default: build 300 papers)")
    parser.add_argument("--papers", type=int, default=300, help="papers to build without --store")
    parser.add_argument("--routes", type=_routes, default=list(ROUTES),
                        help=f"comma-separated route classes ({','.join(ROUTES)})")
    parser.add_argument("--threads", type=int, default=16, help="app threads (16)")
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--sample-every", type=float, default=10.0)
    parser.add_argument("--sqlite-cache-kib", type=int, default=None, metavar="KIB",
                        help="page cache of each SQLite connection (SQLite's default: 2000)")
    args = parser.parse_args(argv)

    from api import create_app

    if args.sqlite_cache_kib is not None:
        small_page_cache(args.sqlite_cache_kib)
    work = Path(tempfile.mkdtemp(prefix="paperkg-memory-"))
    store = Path(args.store) if args.store else build_store(work, args.papers)
    app = create_app({"store": str(store), "rate_limit": 0,
                      "max_queries_in_flight": args.threads * 4,
                      "exports_dir": str(work / "exports")})
    paths = route_paths(app.test_client(), args.routes)
    stop = time.monotonic() + args.seconds
    counts = [0] * args.threads
    failures: list[str] = []

    def loop(n: int) -> None:
        rng, client = random.Random(n), app.test_client()
        while time.monotonic() < stop and not failures:
            path = rng.choice(paths)
            response = client.get(path, headers={"Accept": ACCEPT})
            if response.status_code != 200:
                failures.append(f"{path}: {response.status_code}")
            counts[n] += 1

    def sample(elapsed: float) -> None:
        held = allocator()
        heap = ("allocator n/a" if held is None else
                "in use {:6.1f} MiB, free {:5.1f} MiB, heaps {:6.1f} MiB".format(*held))
        print(f"{elapsed:5.0f} s  requests {sum(counts):6d}  RSS {resident_mib():6.1f} MiB  "
              f"{heap}", flush=True)

    print(f"routes {','.join(args.routes)}, {args.threads} threads, {len(paths)} paths, "
          f"SQLite page cache {args.sqlite_cache_kib or 'default'}")
    threads = [threading.Thread(target=loop, args=(n,), daemon=True)
               for n in range(args.threads)]
    started = time.monotonic()
    sample(0.0)
    for thread in threads:
        thread.start()
    while time.monotonic() < stop and not failures:
        time.sleep(max(0.0, min(args.sample_every, stop - time.monotonic())))
        if time.monotonic() < stop:
            sample(time.monotonic() - started)
    for thread in threads:
        thread.join()
    sample(time.monotonic() - started)
    if failures:
        print(f"error: {failures[0]}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
