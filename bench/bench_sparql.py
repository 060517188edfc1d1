"""SPARQL endpoint benchmark on a generated paper graph (deterministic, ~10 triples a paper).

    python bench/bench_sparql.py --papers 2000       # quick: well under a minute
    python bench/bench_sparql.py --papers 100000     # ~1M triples

Prints median latencies of a query mix (lookup, join, 2-hop) through HTTP on loopback
(granian via api.serve) against pyoxigraph in-process and rdflib's in-memory Graph, the
neighbourhood API against graph.network in-process, and the peak RSS of the server.
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from graph.vocab import DCTERMS, LINK_OF_TYPE, PKG, RDF, RDFS, SKOS, XSD  # noqa: E402
from graph.vocab import DEFAULT_BASE as BASE  # noqa: E402

RDF_TYPE = RDF + "type"
RDFS_LABEL = RDFS + "label"
XSD_INTEGER = XSD + "integer"
# Entity pools, relative to the number of papers, and links per paper.
_SHARES = {"method": (0.05, 2), "dataset": (0.01, 1), "model": (0.02, 1), "task": (0.005, 1),
           "metric": (0.001, 1), "domain": (0.0003, 1)}
POOLS = {kind: (share, LINK_OF_TYPE[kind], count) for kind, (share, count) in _SHARES.items()}
WORDS = ("graph neural deep sparse contrastive robust efficient multi scale attention "
         "learning transfer diffusion kernel bayesian causal latent adaptive").split()


def _iri(path: str) -> str:
    return f"<{BASE}{path}>"


def _literal(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def generate(papers: int, seed: int = 7) -> Iterator[str]:
    """N-Triples lines of a paper graph; entity popularity is skewed (Zipf-like)."""
    rng = random.Random(seed)
    sizes = {kind: max(3, int(papers * share)) for kind, (share, _, _) in POOLS.items()}
    # Zipf weights: the most used entity of a kind is in about 1/ln(size) of the draws.
    cumulative = {kind: list(itertools.accumulate(1 / (i + 1) for i in range(size)))
                  for kind, size in sizes.items()}
    support = {kind: [0] * size for kind, size in sizes.items()}
    for n in range(papers):
        paper = _iri(f"paper/p{n:07d}")
        title = " ".join(rng.choice(WORDS) for _ in range(6)).capitalize()
        yield f"{paper} <{RDF_TYPE}> <{PKG}Paper> ."
        yield f"{paper} <{RDF_TYPE}> <https://schema.org/ScholarlyArticle> ."
        yield f"{paper} <{DCTERMS}title> {_literal(title)} ."
        yield f"{paper} <{RDFS_LABEL}> {_literal(title)} ."
        yield f"{paper} <{DCTERMS}identifier> {_literal(f'p{n:07d}')} ."
        for kind, (_, relation, count) in POOLS.items():
            chosen = set(rng.choices(range(sizes[kind]), cum_weights=cumulative[kind],
                                     k=count))
            for index in chosen:
                support[kind][index] += 1
                yield f"{paper} <{PKG}{relation}> {_iri(f'{kind}/{kind}-{index}')} ."
    for kind, counts in support.items():
        cls = "Domain" if kind == "domain" else kind.capitalize()
        for index, count in enumerate(counts):
            entity = _iri(f"{kind}/{kind}-{index}")
            label = _literal(f"{kind.capitalize()} {index}")
            yield f"{entity} <{RDF_TYPE}> <{PKG}{cls}> ."
            yield f"{entity} <{RDF_TYPE}> <{SKOS}Concept> ."
            yield f"{entity} <{SKOS + 'prefLabel' if kind == 'domain' else RDFS_LABEL}> {label} ."
            yield f'{entity} <{PKG}support> "{count}"^^<{XSD_INTEGER}> .'


def write_graph(papers: int, path: Path) -> int:
    count = 0
    with path.open("w", encoding="utf-8") as out:
        for line in generate(papers):
            out.write(line + "\n")
            count += 1
    return count


def queries(papers: int, n: int = 8) -> dict[str, list[str]]:
    rng = random.Random(11)
    prologue = (f"PREFIX pkg: <{PKG}> PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> ")
    keys = [f"p{rng.randrange(papers):07d}" for _ in range(n)]
    methods = [f"method-{rng.randrange(5)}" for _ in range(n)]
    return {
        "lookup": [prologue + f"SELECT ?l WHERE {{ <{BASE}paper/{key}> rdfs:label ?l }}"
                   for key in keys],
        "join": [prologue + f"SELECT ?p ?t ?d WHERE {{ ?p pkg:usesMethod <{BASE}method/{m}> ; "
                 "pkg:usesDataset ?d ; rdfs:label ?t } LIMIT 100" for m in methods],
        "2-hop": [prologue + f"SELECT ?m (COUNT(?p) AS ?n) WHERE {{ ?p pkg:usesMethod "
                  f"<{BASE}method/{m}> . ?p pkg:usesMethod ?m FILTER(?m != <{BASE}method/{m}>) }}"
                  " GROUP BY ?m ORDER BY DESC(?n) LIMIT 10" for m in methods],
    }


def median_ms(run: Callable[[str], object], items: list[str], repeat: int) -> float:
    for item in items[:2]:
        run(item)  # warm up
    times = []
    for round_ in range(repeat):
        item = items[round_ % len(items)]
        start = time.perf_counter()
        run(item)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """api.serve in a subprocess; one keep-alive connection for requests."""

    def __init__(self, store: str, *settings: str):
        self.port = _free_port()
        args = [sys.executable, "-m", "api.serve", "--store", store, "--port", str(self.port),
                "--log-level", "warning", "--set", "rate_limit=0",
                "--set", "query_time_limit_ms=120000", "--set", "row_cap=100000"]
        for setting in settings:
            args += ["--set", setting]
        self.process = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.DEVNULL)
        self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=300)
        for _ in range(600):
            try:
                self.get("/healthz")
                return
            except OSError:
                self.connection.close()
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def get(self, path: str, accept: str = "application/json") -> bytes:
        try:
            self.connection.request("GET", path, headers={"Accept": accept})
            response = self.connection.getresponse()
        except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
            # The server closes keep-alive connections left idle for a while: reconnect.
            self.connection.close()
            self.connection.request("GET", path, headers={"Accept": accept})
            response = self.connection.getresponse()
        body = response.read()
        if response.status != 200:
            raise RuntimeError(f"{path}: {response.status} {body[:200]!r}")
        return body

    def sparql(self, query: str) -> bytes:
        return self.get("/sparql?" + urllib.parse.urlencode({"query": query}),
                        "application/sparql-results+json")

    def peak_rss_mb(self) -> tuple[float, float]:
        """(largest process, whole process tree) peak resident memory in MiB (VmHWM)."""
        import psutil

        root = psutil.Process(self.process.pid)
        peaks = []
        for proc in [root, *root.children(recursive=True)]:
            try:
                status = Path(f"/proc/{proc.pid}/status").read_text()
            except OSError:
                continue
            for line in status.splitlines():
                if line.startswith("VmHWM:"):
                    peaks.append(int(line.split()[1]) / 1024)
        return max(peaks), sum(peaks)

    def close(self) -> None:
        self.connection.close()
        self.process.terminate()
        self.process.wait(timeout=30)


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cli.add_argument("--papers", type=int, default=100_000)
    cli.add_argument("--repeat", type=int, default=30, help="timed runs per query kind")
    cli.add_argument("--rdflib-repeat", type=int, default=3)
    cli.add_argument("--no-rdflib", action="store_true", help="skip rdflib (slow, large)")
    cli.add_argument("--workdir", help="keep the generated data here")
    args = cli.parse_args(argv)

    import pyoxigraph

    from graph import network

    work = Path(args.workdir or tempfile.mkdtemp(prefix="paperkg-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    data, store_path = work / "graph.nt", work / "store"
    start = time.perf_counter()
    triples = write_graph(args.papers, data)
    print(f"generated {triples:,} triples for {args.papers:,} papers "
          f"in {time.perf_counter() - start:.1f} s")
    shutil.rmtree(store_path, ignore_errors=True)
    start = time.perf_counter()
    loading = pyoxigraph.Store(str(store_path))
    loading.bulk_load(path=str(data), format=pyoxigraph.RdfFormat.N_TRIPLES)
    loading.flush()
    del loading
    print(f"pyoxigraph bulk load: {time.perf_counter() - start:.1f} s")

    mix = queries(args.papers)
    local = pyoxigraph.Store.read_only(str(store_path))

    def in_process(query: str) -> bytes:
        return local.query(query).serialize(format=pyoxigraph.QueryResultsFormat.JSON)

    rows: list[tuple[str, float, float, float | None]] = []
    server = Server(str(store_path))
    try:
        for kind, items in mix.items():
            ours = median_ms(server.sparql, items, args.repeat)
            ox = median_ms(in_process, items, args.repeat)
            rows.append((kind, ours, ox, None))
        # Neighbourhood: HTTP API against graph.network in the same process.
        nodes = [f"method/method-{i}" for i in range(8)]
        api_ms = median_ms(lambda node: server.get(
            f"/api/neighbourhood?node={node}&depth=2&limit=100"), nodes, args.repeat)

        class Local:
            location, generation = str(store_path), staticmethod(lambda: "bench")

            def query(self, sparql: str) -> object:
                return local.query(sparql)

        start = time.perf_counter()
        projection = network.build(Local())
        build_s = time.perf_counter() - start
        nx_ms = median_ms(lambda node: json.dumps(network.neighbourhood(
            projection, node, depth=2, limit=100).nodes), nodes, args.repeat)
        peak, tree = server.peak_rss_mb()
    finally:
        server.close()

    if not args.no_rdflib:
        import rdflib

        start = time.perf_counter()
        graph = rdflib.Graph()
        graph.parse(str(data), format="nt")
        print(f"rdflib parse: {time.perf_counter() - start:.1f} s")

        def with_rdflib(query: str) -> bytes:
            return graph.query(query).serialize(format="json")  # type: ignore[no-any-return]

        rows = [(kind, ours, ox, median_ms(with_rdflib, mix[kind], args.rdflib_repeat))
                for kind, ours, ox, _ in rows]

    print()
    print(f"| query ({args.papers:,} papers, {triples:,} triples) | ours over HTTP (ms) | "
          "pyoxigraph in-process (ms) | ours / pyoxigraph | rdflib in-memory (ms) | "
          "rdflib / ours |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for kind, ours, ox, rdf in rows:
        rdf_cells = (f"{rdf:.1f} | {rdf / ours:.0f}×" if rdf is not None else "– | –")
        print(f"| {kind} | {ours:.2f} | {ox:.2f} | {ours / ox:.2f} | {rdf_cells} |")
    print(f"| neighbourhood depth 2, ≤100 nodes | {api_ms:.2f} (API) | {nx_ms:.2f} "
          f"(graph.network) | {api_ms / nx_ms:.2f} | | |")
    print()
    print(f"projection build in-process: {build_s:.1f} s")
    print(f"server peak RSS: largest process {peak:.0f} MiB, whole tree {tree:.0f} MiB")
    if not args.workdir:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
