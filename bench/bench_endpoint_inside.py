"""Where a cheap query's time goes inside the server: the app's own call, timed in the worker.

    python bench/bench_endpoint_inside.py                 # ASK {}, 1,000 alternated rounds
    python bench/bench_endpoint_inside.py --rounds 2000 --query "SELECT ..."

`bench_endpoint.py` times whole requests from a client. This one starts two granian servers on
the same store (deterministic, from `bench_sparql.generate`) with the same settings as
`bench_endpoint.py`'s floors: "engine", a bare WSGI function that runs the query with
pyoxigraph and writes the answer, and "paperkg", the app as `python -m api.serve` runs it in a
worker (`api.serve.serving_app`: the shared client table, the watchdog; no rate limit). Each
server times its own WSGI call with `time.perf_counter` and, asked for `/__times`, answers the
median in microseconds. The same two calls are then timed in a hot loop in this process, on
the same store. What the server spends above the loop is the cost of running cold: between
two requests the processor's caches lose the code and the data. A third server, "beside",
runs the engine's function in a process that has made paperkg's app and never calls it: what
the app's weight alone (its modules and objects) costs each request. Each request is also
timed whole at the client.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

from bench_endpoint import ACCEPT, Endpoint, build_store, close_all  # noqa: E402
from bench_sparql import _free_port  # noqa: E402

_TIMES: list[float] = []
_OPENED: dict[str, Any] = {}  # "engine": the store, "paperkg": the app, made on first use


def _timed(app: Callable[..., Any]) -> Callable[..., Any]:
    def wsgi(environ: dict, start_response: Callable[..., Any]) -> Any:
        if environ.get("PATH_INFO") == "/__times":
            body = json.dumps({"median_us": statistics.median(_TIMES[-1000:]) * 1e6}).encode()
            start_response("200 OK", [("Content-Type", "application/json")])
            return [body]
        start = time.perf_counter()
        answer = app(environ, start_response)
        _TIMES.append(time.perf_counter() - start)
        return answer

    return wsgi


def _engine(environ: dict, start_response: Callable[..., Any]) -> list[bytes]:
    from urllib.parse import unquote_plus

    import pyoxigraph

    store = _OPENED.get("engine")
    if store is None:
        store = _OPENED["engine"] = pyoxigraph.Store.read_only(os.environ["BENCH_ENGINE_STORE"])
    sparql = unquote_plus(environ["QUERY_STRING"][len("query="):])
    body = store.query(sparql).serialize(format=pyoxigraph.QueryResultsFormat.JSON)
    start_response("200 OK", [("Content-Type", ACCEPT), ("Content-Length", str(len(body)))])
    return [body]


def _paperkg(environ: dict, start_response: Callable[..., Any]) -> Any:
    app = _OPENED.get("paperkg")
    if app is None:
        from api.query.clients import ClientTable
        from api.serve import serving_app

        # As `python -m api.serve` makes it: the shared client table, the watchdog.
        app = _OPENED["paperkg"] = serving_app(
            {"store": os.environ["BENCH_ENGINE_STORE"], "rate_limit": 0,
             "CLIENT_TABLE": ClientTable.shared(leases=8 + 16)}, 60.0)
    return app(environ, start_response)


def _engine_beside_app(environ: dict, start_response: Callable[..., Any]) -> list[bytes]:
    if "beside" not in _OPENED:  # the app made, never called: only its weight in the process
        from api import create_app

        _OPENED["beside"] = create_app({"store": os.environ["BENCH_ENGINE_STORE"],
                                        "rate_limit": 0})
    return _engine(environ, start_response)


engine_app = _timed(_engine)
paperkg_app = _timed(_paperkg)
beside_app = _timed(_engine_beside_app)


def _start(name: str, app: str, store: Path) -> Endpoint:
    port = _free_port()
    process = subprocess.Popen(
        [str(Path(sys.executable).parent / "granian"), "--interface", "wsgi",
         "--host", "127.0.0.1", "--port", str(port), "--workers", "1",
         "--blocking-threads", "8", "--no-ws", "--log-level", "warning",
         "--working-dir", str(ROOT / "bench"), f"bench_endpoint_inside:{app}"],
        cwd=ROOT, env={**os.environ, "BENCH_ENGINE_STORE": str(store)},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return Endpoint(name, port, "/sparql", process)


def _inside(endpoint: Endpoint) -> float:
    endpoint.connection.request("GET", "/__times")
    return float(json.loads(endpoint.connection.getresponse().read())["median_us"])


def _loop(call: Callable[[], Any], rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def _in_process(location: Path, query: str, rounds: int) -> tuple[float, float]:
    """Hot-loop medians (µs) of the same two WSGI functions, called in this process."""
    import io
    from urllib.parse import urlencode

    os.environ["BENCH_ENGINE_STORE"] = str(location)
    environ = {"REQUEST_METHOD": "GET", "PATH_INFO": "/sparql", "SCRIPT_NAME": "",
               "QUERY_STRING": urlencode({"query": query}), "HTTP_ACCEPT": ACCEPT,
               "HTTP_HOST": "127.0.0.1:5000", "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "5000",
               "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "127.0.0.1",
               "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(b""),
               "wsgi.errors": sys.stderr, "wsgi.version": (1, 0), "wsgi.multithread": True,
               "wsgi.multiprocess": False, "wsgi.run_once": False}
    medians = []
    for app in (_engine, _paperkg):
        def call(app: Callable[..., Any] = app) -> None:
            b"".join(app(dict(environ), lambda status, headers, *exc: None))

        for _ in range(5):  # learned, then known as cheap, then answered in front of Flask
            call()
        medians.append(_loop(call, rounds))
    return medians[0], medians[1]


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cli.add_argument("--papers", type=int, default=2000)
    cli.add_argument("--rounds", type=int, default=1000)
    cli.add_argument("--query", default="ASK {}")
    args = cli.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="bench-inside-"))
    endpoints: list[Endpoint] = []
    try:
        location = build_store(args.papers, folder)
        endpoints = [_start("engine", "engine_app", location),
                     _start("paperkg", "paperkg_app", location),
                     _start("beside", "beside_app", location)]
        for endpoint in endpoints:
            endpoint.wait_ready()
            for _ in range(20):
                endpoint.ask(args.query, keep_alive=True)
        whole: dict[str, list[float]] = {endpoint.name: [] for endpoint in endpoints}
        for round_ in range(args.rounds):
            shift = round_ % len(endpoints)
            for endpoint in endpoints[shift:] + endpoints[:shift]:
                whole[endpoint.name].append(endpoint.ask(args.query, keep_alive=True) * 1000)
        served = {endpoint.name: _inside(endpoint) for endpoint in endpoints}
        request = {name: statistics.median(times) for name, times in whole.items()}
        engine, ours = _in_process(location, args.query, max(args.rounds, 5000))
        print(f"{args.query!r}: medians in µs over {args.rounds} alternated kept-alive requests: "
              "the whole request at the client, the WSGI call in the server, the same call in a "
              "hot loop in one process")
        print(f"{'':<8} {'request':>8} {'server':>8} {'loop':>8}")
        print(f"{'engine':<8} {request['engine']:>8.1f} {served['engine']:>8.1f} {engine:>8.1f}")
        print(f"{'beside':<8} {request['beside']:>8.1f} {served['beside']:>8.1f}")
        print(f"{'paperkg':<8} {request['paperkg']:>8.1f} {served['paperkg']:>8.1f} {ours:>8.1f}")
        print("beside: the engine's function in a process that has made the app and never "
              "calls it")
    finally:
        close_all(endpoints, folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
