"""Bounded load test of the HTTP service, on loopback only.

    .venv/bin/python bench/load_test.py --seconds 60 --clients 50 [--store DIR]

Starts the server (`python -m api.serve`, granian) on a free 127.0.0.1 port over a built
store (without --store it builds one from `bench/gen_corpus.py --papers 300` in a temporary
folder), then runs `--clients` client threads for `--seconds`, each from its own loopback
address (127.0.1.N) and looping over a mix of cheap requests (SPARQL SELECT/ASK with LIMIT,
neighbourhood, search, paper and entity pages), and `--slow-clients` more clients (addresses
127.0.2.N, `--slow-threads` threads each) that only send queries far too expensive for the
time limit. It samples the resident memory of the server's process tree every
`--sample-every` seconds, stops by itself and prints: requests sent, answers by status (only
200 and 429 are allowed, and for slow queries the time limit's 503; anything else is listed as
an error), p50/p99 latency of cheap requests answered 200 (all, and SPARQL alone), slow
queries stopped by the time limit or refused with 429, and the memory series. Exit status 1
when a disallowed status or a connection error occurred.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, urlencode

import psutil

ROOT = Path(__file__).resolve().parent.parent
CHEAP_SPARQL = ("PREFIX pkg: <https://w3id.org/paperkg/ns#> "
                "SELECT ?p ?m WHERE { ?p pkg:usesMethod ?m } LIMIT 20")
# Three unconstrained patterns: a cross product of the graph with itself, far past any limit.
SLOW_SPARQL = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
CHEAP_SPARQL_MORE = (
    "PREFIX pkg: <https://w3id.org/paperkg/ns#> ASK { ?p a pkg:Paper }",
    "PREFIX pkg: <https://w3id.org/paperkg/ns#> "
    "SELECT ?d WHERE { ?p pkg:usesDataset ?d } LIMIT 10",
)
SPARQL_WEIGHT = 6  # copies of each cheap query among the paths, so a fair share is SPARQL


@dataclass
class Tally:
    statuses: Counter = field(default_factory=Counter)
    cheap_ms: list[float] = field(default_factory=list)
    sparql_ms: list[float] = field(default_factory=list)
    slow_refused: int = 0
    slow_ms: list[float] = field(default_factory=list)
    time_limited: int = 0
    errors: Counter = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def build_store(folder: Path, papers: int) -> Path:
    corpus = folder / "corpus.jsonl"
    subprocess.run([sys.executable, str(ROOT / "bench" / "gen_corpus.py"), "--papers",
                    str(papers), "--seed", "17", "--out", str(corpus)], check=True)
    subprocess.run([sys.executable, "-m", "graph", "build", str(corpus), "--store",
                    str(folder / "store"), "--out", str(folder / "exports"), "--no-progress"],
                   check=True, cwd=ROOT)
    return folder / "store"


def tree_rss(pid: int) -> dict[int, int]:
    """Resident bytes of a process and each descendant (server workers, query workers)."""
    try:
        root = psutil.Process(pid)
        processes = [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return {}
    found = {}
    for process in processes:
        try:
            found[process.pid] = process.memory_info().rss
        except psutil.NoSuchProcess:
            pass
    return found


def mib(rss: dict[int, int]) -> str:
    parts = " + ".join(f"{n / 2**20:.0f}" for n in sorted(rss.values(), reverse=True))
    return f"{sum(rss.values()) / 2**20:.0f} MiB in {len(rss)} processes ({parts})"


def get(port: int, path: str, *, headers: dict[str, str] | None = None, timeout: float = 30,
        source: str | None = None) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=timeout,
        source_address=(source, 0) if source is not None else None)
    try:
        connection.request("GET", path, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def wait_ready(port: int, server: subprocess.Popen, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server exited with status {server.returncode}")
        try:
            if get(port, "/healthz", timeout=2)[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit("the server did not become ready")


def cheap_paths(port: int) -> list[str]:
    status, body = get(port, "/api/papers?limit=50")
    papers = [p["key"] for p in json.loads(body)["papers"]] if status == 200 else []
    status, body = get(port, "/api/entities?limit=50")
    entities = [e["id"] for e in json.loads(body)["entities"]] if status == 200 else []
    paths = ["/sparql?" + urlencode({"query": query})
             for query in (CHEAP_SPARQL, *CHEAP_SPARQL_MORE)] * SPARQL_WEIGHT
    paths += ["/", "/api/search?q=network",
             "/api/search?q=bench", "/search?q=transformer"]
    for key in papers[:20]:
        paths += [f"/api/neighbourhood?node=paper/{quote(key)}&depth=1",
                  f"/paper/{quote(key)}", f"/api/papers/{quote(key)}"]
    for ref in entities[:20]:
        paths += [f"/api/neighbourhood?node={quote(ref)}&depth=1", f"/entity/{quote(ref)}"]
    return paths


def client(port: int, paths: list[str], stop: float, tally: Tally, seed: int,
           source: str) -> None:
    rng = random.Random(seed)
    headers = {"Accept": "application/sparql-results+json, application/json, text/html"}
    while time.monotonic() < stop:
        path = rng.choice(paths)
        started = time.monotonic()
        try:
            status, body = get(port, path, headers=headers, source=source)
        except OSError as exc:
            with tally.lock:
                tally.errors[f"connection: {type(exc).__name__}"] += 1
            continue
        elapsed = (time.monotonic() - started) * 1000
        with tally.lock:
            tally.statuses[status] += 1
            if status == 200:
                tally.cheap_ms.append(elapsed)
                if path.startswith("/sparql"):
                    tally.sparql_ms.append(elapsed)
            elif status != 429:
                tally.errors[f"{status} {path.split('?')[0]}: {_message(body)}"] += 1


def _message(body: bytes) -> str:
    try:
        return str(json.loads(body)["error"]["message"])[:60]
    except (ValueError, KeyError, TypeError):
        return body[:60].decode("utf-8", "replace")


def slow_client(port: int, stop: float, tally: Tally, source: str) -> None:
    path = "/sparql?" + urlencode({"query": SLOW_SPARQL})
    headers = {"Accept": "application/sparql-results+json"}
    while time.monotonic() < stop:
        started = time.monotonic()
        try:
            status, body = get(port, path, headers=headers, timeout=120, source=source)
        except OSError as exc:
            with tally.lock:
                tally.errors[f"slow connection: {type(exc).__name__}"] += 1
            continue
        elapsed = (time.monotonic() - started) * 1000
        with tally.lock:
            tally.statuses[status] += 1
            if status == 503:
                message = json.loads(body)["error"]["message"]
                if "time limit" in message:
                    tally.time_limited += 1
                    tally.slow_ms.append(elapsed)
                else:  # "busy" included: only the time limit's 503 is expected
                    tally.errors[f"503 slow: {message[:80]}"] += 1
            elif status == 429:
                tally.slow_refused += 1
                time.sleep(0.5)  # the flood keeps up, but a refused client backs off a little
            else:
                tally.errors[f"{status} slow query"] += 1


def address(block: int, n: int) -> str:
    """A loopback address of its own for client `n` (Linux routes all of 127/8 to lo)."""
    return f"127.0.{block}.{n % 254 + 1}"


def sample_memory(pid: int, started: float, stop: float, every: float,
                  samples: list[tuple[float, dict[int, int], float]]) -> None:
    next_at = started + every
    while next_at <= stop + 0.5:
        time.sleep(max(0.0, next_at - time.monotonic()))
        samples.append((time.monotonic() - started, tree_rss(pid), os.getloadavg()[0]))
        next_at += every


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", help="a built store folder (default: build 300 papers)")
    parser.add_argument("--papers", type=int, default=300, help="papers to build without --store")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--clients", type=int, default=50, help="threads sending cheap requests")
    parser.add_argument("--slow-clients", type=int, default=8,
                        help="client addresses sending only queries past the time limit")
    parser.add_argument("--slow-threads", type=int, default=3,
                        help="threads of each slow client (more than max_queries_in_flight)")
    parser.add_argument("--sample-every", type=float, default=15.0,
                        help="seconds between samples of the server's memory")
    parser.add_argument("--workers", type=int, default=2, help="server worker processes")
    parser.add_argument("--threads", type=int, default=16, help="app threads per server worker")
    parser.add_argument("--rate-limit", type=int, default=600,
                        help="server setting rate_limit (requests a minute per client address)")
    parser.add_argument("--burst", type=int, default=60, help="server setting rate_limit_burst")
    parser.add_argument("--time-limit-ms", type=int, default=2000,
                        help="server setting query_time_limit_ms")
    args = parser.parse_args(argv)

    work = Path(tempfile.mkdtemp(prefix="paperkg-load-"))
    store = Path(args.store) if args.store else build_store(work, args.papers)
    port = free_port()
    command = [sys.executable, "-m", "api.serve", "--store", str(store), "--host", "127.0.0.1",
               "--port", str(port), "--workers", str(args.workers), "--threads",
               str(args.threads), "--log-level", "warning",
               "--set", f"rate_limit={args.rate_limit}",
               "--set", f"rate_limit_burst={args.burst}",
               "--set", f"query_time_limit_ms={args.time_limit_ms}",
               "--set", f"exports_dir={work / 'exports'}"]
    log = open(work / "server.log", "wb")
    server = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log,
                              start_new_session=True)
    try:
        wait_ready(port, server)
        paths = cheap_paths(port)
        for path in paths[:10]:  # warm the caches (graph projection, query workers)
            get(port, path)
        rss_start = tree_rss(server.pid)
        tally = Tally()
        stop = time.monotonic() + args.seconds
        threads = [threading.Thread(target=client, args=(port, paths, stop, tally, n,
                                                          address(1, n)))
                   for n in range(args.clients)]
        threads += [threading.Thread(target=slow_client, args=(port, stop, tally,
                                                               address(2, n)))
                    for n in range(args.slow_clients) for _ in range(args.slow_threads)]
        started = time.monotonic()
        samples: list[tuple[float, dict[int, int], float]] = [
            (0.0, rss_start, os.getloadavg()[0])]
        sampler = threading.Thread(target=sample_memory,
                                   args=(server.pid, started, stop, args.sample_every, samples))
        for thread in threads:
            thread.start()
        sampler.start()
        for thread in threads:
            thread.join()
        wall = time.monotonic() - started
        sampler.join()
        healthy = get(port, "/healthz")[0]
        rss_end = tree_rss(server.pid)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
        log.close()

    total = sum(tally.statuses.values())
    print(f"load test: {args.clients} clients + {args.slow_clients} slow-query clients "
          f"x {args.slow_threads} threads, "
          f"{wall:.1f} s, server {args.workers} workers x {args.threads} threads, "
          f"rate_limit={args.rate_limit}/min burst {args.burst}, "
          f"time limit {args.time_limit_ms} ms, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"requests answered: {total} ({total / wall:.0f}/s)")
    print("by status: " + ", ".join(f"{s}: {n}" for s, n in sorted(tally.statuses.items())))
    print(f"cheap requests answered 200: {len(tally.cheap_ms)}; latency p50 "
          f"{percentile(tally.cheap_ms, 0.5):.0f} ms, p99 {percentile(tally.cheap_ms, 0.99):.0f}"
          f" ms, max {max(tally.cheap_ms, default=float('nan')):.0f} ms")
    print(f"  of which SPARQL: {len(tally.sparql_ms)}; latency p50 "
          f"{percentile(tally.sparql_ms, 0.5):.0f} ms, p99 "
          f"{percentile(tally.sparql_ms, 0.99):.0f} ms, max "
          f"{max(tally.sparql_ms, default=float('nan')):.0f} ms")
    print(f"slow queries stopped by the time limit: {tally.time_limited} (answered after "
          f"median {statistics.median(tally.slow_ms) if tally.slow_ms else float('nan'):.0f} ms)"
          f"; refused with 429: {tally.slow_refused}")
    print(f"server RSS at the start: {mib(rss_start)}")
    print("server RSS during the run (s: MiB total, processes, load average):")
    for at, rss, load in samples:
        print(f"  {at:5.0f}: {sum(rss.values()) / 2**20:5.0f} MiB, {len(rss)} processes, "
              f"load {load:.1f}")
    print(f"server RSS at the end:   {mib(rss_end)}; /healthz after the run: {healthy}")
    if tally.errors:
        print("errors: " + ", ".join(f"{k}: {n}" for k, n in tally.errors.most_common()))
        return 1
    print("errors: none")
    return 0


if __name__ == "__main__":
    sys.exit(main())
