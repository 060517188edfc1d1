"""The endpoint's latency on cheap queries against Oxigraph's own server, on the same store.

    python bench/bench_endpoint.py                  # 2,000 papers, 200 alternated rounds
    python bench/bench_endpoint.py --papers 20000 --rounds 400

Builds a store from `bench_sparql.generate` (deterministic), starts `python -m api.serve`
(granian, default settings but no rate limit) and `oxigraph serve-read-only` on it, then sends
the same four queries to both, alternating the two servers request by request so that both
see the same machine load: `ASK {}`, a one-triple lookup, a join and a 2-hop aggregate. Each
is timed on a kept-alive connection and on a new connection per request. Prints the medians
(ms) and paperkg's ratio to Oxigraph's server for each, and the largest ratio.

A third server shows the floor of the stack: a Flask app that answers every request with a
fixed `ASK` result, under granian with the same worker settings as `api.serve` (no store, no
query worker, no limits). What paperkg spends above it is its own; what the floor spends above
Oxigraph's server is Python's HTTP stack. A fourth, "worker", is paperkg with
`cheap_query_ms=0`: every query handed to a query worker process, as before that setting. A
fifth, "wsgi", is the floor's fixed answer from a bare WSGI function under the same granian
settings: the floor less Flask, what the HTTP server alone costs. A sixth, "logged", is
paperkg with its access log on (`--access-log`; off by default). A seventh, "engine", is a
bare WSGI function under the same settings that runs the query on the store, opened read-only
with pyoxigraph, and writes the answer: the floor of any Python server in front of the engine.
"""

from __future__ import annotations

import argparse
import http.client
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from bench_sparql import _free_port, queries, write_graph  # noqa: E402

OXIGRAPH = Path(sys.executable).parent / "oxigraph"
ACCEPT = "application/sparql-results+json"


class Endpoint:
    """A SPARQL endpoint at `port`/`path`: one kept-alive connection, or a new one a request."""

    def __init__(self, name: str, port: int, path: str, process: subprocess.Popen):
        self.name, self.port, self.path, self.process = name, port, path, process
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def ask(self, query: str, *, keep_alive: bool) -> float:
        """Milliseconds from sending the request to the end of the answer."""
        target = self.path + "?" + urllib.parse.urlencode({"query": query})
        connection = self.connection if keep_alive else \
            http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        start = time.perf_counter()
        try:
            connection.request("GET", target, headers={"Accept": ACCEPT})
            response = connection.getresponse()
        except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
            connection.close()  # an idle kept-alive connection was closed: reconnect
            start = time.perf_counter()
            connection.request("GET", target, headers={"Accept": ACCEPT})
            response = connection.getresponse()
        body = response.read()
        elapsed = (time.perf_counter() - start) * 1000
        if not keep_alive:
            connection.close()
        if response.status != 200:
            raise RuntimeError(f"{self.name}: {response.status} {body[:200]!r}")
        return elapsed

    def wait_ready(self) -> None:
        for _ in range(600):
            try:
                self.ask("ASK {}", keep_alive=False)
                return
            except OSError:
                if self.process.poll() is not None:
                    break
                time.sleep(0.1)
        raise RuntimeError(f"{self.name} did not start")

    def close(self) -> None:
        self.connection.close()
        self.process.terminate()
        self.process.wait(timeout=30)


def close_all(endpoints: list[Endpoint], folder: Path) -> None:
    """Stop the servers and remove the benchmark's store."""
    for endpoint in endpoints:
        endpoint.close()
    shutil.rmtree(folder, ignore_errors=True)


def floor_app(environ: dict, start_response: object) -> list[bytes]:
    """The floor: a WSGI app through Flask that does no work."""
    return _FLOOR(environ, start_response)


def engine_app(environ: dict, start_response: Callable[..., object]) -> list[bytes]:
    """The engine's floor: the query run by pyoxigraph and its answer written, nothing else."""
    global _ENGINE
    from urllib.parse import unquote_plus

    import pyoxigraph

    if _ENGINE is None:
        _ENGINE = pyoxigraph.Store.read_only(os.environ["BENCH_ENGINE_STORE"])
    sparql = unquote_plus(environ["QUERY_STRING"][len("query="):])
    body = _ENGINE.query(sparql).serialize(format=pyoxigraph.QueryResultsFormat.JSON)
    start_response("200 OK", [("Content-Type", ACCEPT), ("Content-Length", str(len(body)))])
    return [body]


_ENGINE = None


def _make_floor() -> object:
    from flask import Flask

    app = Flask("floor")

    @app.route("/sparql")
    def sparql() -> tuple[bytes, int, dict[str, str]]:
        return b'{"head":{},"boolean":true}', 200, {"Content-Type": ACCEPT}

    return app


_FLOOR = _make_floor() if __name__ != "__main__" else None


def bare_app(environ: dict, start_response: Callable[..., object]) -> list[bytes]:
    """The floor less Flask: the fixed answer from a bare WSGI function."""
    body = b'{"head":{},"boolean":true}'
    start_response("200 OK", [("Content-Type", ACCEPT), ("Content-Length", str(len(body)))])
    return [body]


def start_floor(name: str = "floor", app: str = "floor_app", store: Path | None = None
                ) -> Endpoint:
    """`app` under granian with api.serve's settings (one worker, 8 app threads, no access log);
    `store` for the engine's floor."""
    port = _free_port()
    env = {**os.environ, "BENCH_ENGINE_STORE": str(store)} if store else None
    process = subprocess.Popen(
        [str(Path(sys.executable).parent / "granian"), "--interface", "wsgi",
         "--host", "127.0.0.1", "--port", str(port), "--workers", "1",
         "--blocking-threads", "8", "--no-ws", "--log-level", "warning",
         "--working-dir", str(ROOT / "bench"), f"bench_endpoint:{app}"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return Endpoint(name, port, "/sparql", process)


def build_store(papers: int, folder: Path) -> Path:
    import pyoxigraph

    data = folder / "graph.nt"
    write_graph(papers, data)
    location = folder / "store"
    store = pyoxigraph.Store(str(location))
    store.bulk_load(path=str(data), format=pyoxigraph.RdfFormat.N_TRIPLES)
    store.flush()
    del store
    return location


def start_paperkg(location: Path, name: str = "paperkg", *settings: str,
                  options: tuple[str, ...] = ()) -> Endpoint:
    port = _free_port()
    args = [sys.executable, "-m", "api.serve", "--store", str(location), "--port", str(port),
            "--log-level", "warning", "--set", "rate_limit=0", *options]
    for setting in settings:
        args += ["--set", setting]
    process = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.DEVNULL)
    return Endpoint(name, port, "/sparql", process)


def start_oxigraph(location: Path) -> Endpoint:
    port = _free_port()
    process = subprocess.Popen(
        [str(OXIGRAPH), "serve-read-only", "--location", str(location),
         "--bind", f"127.0.0.1:{port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return Endpoint("oxigraph", port, "/query", process)


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cli.add_argument("--papers", type=int, default=2000)
    cli.add_argument("--rounds", type=int, default=200, help="timed requests per query, server "
                     "and connection kind")
    args = cli.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="bench-endpoint-"))
    endpoints: list[Endpoint] = []
    try:
        location = build_store(args.papers, folder)
        endpoints = [start_paperkg(location), start_oxigraph(location), start_floor(),
                     start_paperkg(location, "worker", "cheap_query_ms=0"),
                     start_floor("wsgi", "bare_app"),
                     start_paperkg(location, "logged", options=("--access-log",)),
                     start_floor("engine", "engine_app", location)]
        for endpoint in endpoints:
            endpoint.wait_ready()
        mix = queries(args.papers, n=1)
        cases = {"ASK {}": "ASK {}", "lookup": mix["lookup"][0], "join": mix["join"][0],
                 "2-hop aggregate": mix["2-hop"][0]}
        print(f"{args.papers} papers; {args.rounds} alternated rounds; medians in ms")
        print(f"{'query':<17} {'connection':<11} {'paperkg':>8} {'oxigraph':>9} {'ratio':>6} "
              f"{'floor':>6} {'worker':>7} {'wsgi':>6} {'logged':>7} {'engine':>7}")
        worst = 0.0
        for keep_alive in (True, False):
            for label, query in cases.items():
                times: dict[str, list[float]] = {e.name: [] for e in endpoints}
                for endpoint in endpoints:  # warm up: workers started, caches filled
                    for _ in range(5):
                        endpoint.ask(query, keep_alive=keep_alive)
                for round_ in range(args.rounds):
                    shift = round_ % len(endpoints)
                    order = endpoints[shift:] + endpoints[:shift]
                    for endpoint in order:
                        times[endpoint.name].append(endpoint.ask(query, keep_alive=keep_alive))
                ours = statistics.median(times["paperkg"])
                theirs = statistics.median(times["oxigraph"])
                worst = max(worst, ours / theirs)
                kind = "kept-alive" if keep_alive else "new"
                floor = statistics.median(times["floor"])
                worker = statistics.median(times["worker"])
                bare = statistics.median(times["wsgi"])
                logged = statistics.median(times["logged"])
                engine = statistics.median(times["engine"])
                print(f"{label:<17} {kind:<11} {ours:>8.2f} {theirs:>9.2f} {ours / theirs:>6.2f} "
                      f"{floor:>6.2f} {worker:>7.2f} {bare:>6.2f} {logged:>7.2f} {engine:>7.2f}")
        print(f"largest ratio: {worst:.2f} (floor: Flask under granian answering a fixed "
              "result, the same for every query; wsgi: the same without Flask; engine: a bare "
              "WSGI function running the query with pyoxigraph)")
    finally:
        close_all(endpoints, folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
