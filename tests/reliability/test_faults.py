"""Faults during a build: SIGKILL at random moments and at every file operation of the write
phase, read-only folders and a full disk. The previous graph must stay readable, every export
file complete, and the next build must succeed."""

from __future__ import annotations

import os
import pickle
import random
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from graph.corpus import read_corpus

from .conftest import (
    GOOD_CORPUS,
    PAPERKG,
    ROOT,
    Graph,
    assert_user_error,
    export_state,
    generated_corpus,
    run_cli,
    store_fingerprint,
    tmpfs,
)

EXPORT_FILES = {"graph.ttl", "graph.nt", "graph.jsonld", "graph.rdf", "graph.trig", "graph.nq",
                "report.json", "report.md"}


def state(graph: Graph) -> tuple[tuple[int, int], dict[str, bytes]]:
    return store_fingerprint(graph.store), export_state(graph.exports)


def assert_old_or_new(graph: Graph, old, new, where: str) -> str:
    """Store and each export file are complete, and each is the previous or the new version.

    Returns which the store holds ("old" or "new")."""
    store, exports = state(graph)
    # A killed build may leave its hidden temporary files; they are not exports.
    exports = {name: data for name, data in exports.items() if not name.startswith(".")}
    assert store in (old[0], new[0]), f"{where}: the store is neither the old nor the new graph"
    assert set(exports) == EXPORT_FILES, f"{where}: {sorted(exports)}"
    for name, data in exports.items():
        assert data in (old[1][name], new[1][name]), f"{where}: {name} is damaged"
    return "old" if store == old[0] else "new"


# -- SIGKILL at random moments, through the installed command -------------------------------


def kill_after(delay: float, corpus: Path, graph: Graph) -> int:
    """Start `paperkg build`, SIGKILL it after `delay` seconds; its exit status."""
    child = subprocess.Popen([*PAPERKG, "build", str(corpus), *graph.args()], cwd=ROOT,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        child.wait(timeout=delay)
    except subprocess.TimeoutExpired:
        child.send_signal(signal.SIGKILL)
        child.wait()
    assert child.returncode in (0, -signal.SIGKILL)
    return child.returncode


@pytest.mark.slow
def test_build_killed_at_random_moments_leaves_a_readable_graph(
    good_graph_template: Graph, tmp_path: Path
) -> None:
    corpus = generated_corpus(tmp_path / "c300.jsonl", 300, seed=11)
    old = state(good_graph_template)
    graph = Graph(tmp_path / "graph")
    rng = random.Random(20261202)

    # A kill while the command starts, reads and parses...
    shutil.copytree(good_graph_template.root, graph.root, symlinks=True)
    first = kill_after(rng.uniform(3.0, 8.0), corpus, graph)
    after_first = state(graph)
    # ...then a complete build on the folders it left: no stale lock or half-made generation
    # may be in its way. It is the new graph, and it times a build.
    started = time.monotonic()
    proc = subprocess.run([*PAPERKG, "build", str(corpus), *graph.args()], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    full = time.monotonic() - started
    assert proc.returncode == 0, proc.stderr
    new = state(graph)
    assert new != old
    assert after_first[0] in (old[0], new[0]), f"exit {first}: store damaged"
    assert after_first[1] in (old[1], new[1]), f"exit {first}: exports damaged"

    # Kills in the last third of a build: resolve, RDF, the store switch, the export renames.
    for delay in (rng.uniform(0.7, 1.0) * full for _ in range(2)):
        shutil.rmtree(graph.root)
        shutil.copytree(good_graph_template.root, graph.root, symlinks=True)
        status = kill_after(delay, corpus, graph)
        assert_old_or_new(graph, old, new, f"exit {status} after {delay:.1f}s of {full:.1f}s")


# -- SIGKILL at every file operation of the write phase --------------------------------------


class KillServer:
    """tests/reliability/killpoints.py: builds that SIGKILL themselves at a chosen operation."""

    def __init__(self, extractions_file: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).with_name("killpoints.py")),
             str(extractions_file)],
            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )
        assert self.proc.stdout.readline().strip() == "ready"

    def build(self, k: int, corpus: Path, graph: Graph) -> str:
        self.proc.stdin.write(f"{k} {corpus} {graph.store} {graph.exports}\n")
        self.proc.stdin.flush()
        return self.proc.stdout.readline().strip()

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def kill_points(names: list[str]) -> list[int]:
    """1-based indexes of the first, a middle and the last operation of every run of one kind
    ("replace" x8 is eight export renames): each step of the write phase, in fewer builds."""
    points: set[int] = set()
    start = 0
    for i in range(1, len(names) + 1):
        if i == len(names) or names[i] != names[start]:
            points.update({start + 1, (start + i + 1) // 2, i})
            start = i
    return sorted(points)


def test_build_killed_at_each_file_operation_keeps_every_file_whole(
    good_graph_template: Graph, tmp_path: Path
) -> None:
    corpus = generated_corpus(tmp_path / "c12.jsonl", 12, seed=5)
    from graph.build import extract

    extractions_file = tmp_path / "extractions.pickle"
    extractions_file.write_bytes(pickle.dumps(extract(read_corpus([corpus]).papers)))
    server = KillServer(extractions_file)
    graph = Graph(tmp_path / "graph")

    def kill_at(k: int) -> None:
        shutil.rmtree(graph.root, ignore_errors=True)
        shutil.copytree(good_graph_template.root, graph.root, symlinks=True)
        assert server.build(k, corpus, graph) == f"killed {k}"

    try:
        old = state(good_graph_template)
        reference = Graph(tmp_path / "reference")
        shutil.copytree(good_graph_template.root, reference.root, symlinks=True)
        answer = server.build(0, corpus, reference)
        assert answer.startswith("done "), answer
        names = answer.split()[1:]
        new = state(reference)
        assert names.count("replace") >= 9  # the store switch and eight export files at least
        operations = len(names)

        held, litter = {}, []
        for k in kill_points(names):
            kill_at(k)
            held[k] = assert_old_or_new(graph, old, new, f"killed at file operation {k}")
            if any(p.name.startswith(".") for p in graph.exports.iterdir()):
                litter.append(k)
        # One switch: the old graph before it, the new one after; never back.
        order = "".join("o" if held[k] == "old" else "n" for k in sorted(held))
        assert order == "o" * order.count("o") + "n" * order.count("n"), order
        # Recovery from a kill that left temporary export files: the next build gives exactly
        # the new graph.
        kill_at(litter[len(litter) // 2] if litter else operations)
        answer = server.build(0, corpus, graph)
        assert answer.startswith("done "), answer
        assert state(graph)[0] == new[0]
        assert {n: d for n, d in state(graph)[1].items() if not n.startswith(".")} == new[1]
    finally:
        server.close()


# -- read-only folders and a full disk -------------------------------------------------------

def smaller_corpus(tmp_path: Path) -> Path:
    """The good corpus less one paper: a build of it would visibly change the graph."""
    corpus = tmp_path / "smaller.jsonl"
    corpus.write_text("".join(GOOD_CORPUS.read_text(encoding="utf-8").splitlines(True)[:2]),
                      encoding="utf-8")
    return corpus


def test_read_only_store_folder_is_a_clear_error_and_keeps_the_graph(
    good_graph: Graph, tmp_path: Path
) -> None:
    corpus = smaller_corpus(tmp_path)
    before = good_graph.snapshot()
    with tmpfs(good_graph.root, read_only=True):
        exports = Graph(tmp_path / "elsewhere")  # a writable export folder
        result = run_cli(["build", str(corpus), "--store", str(good_graph.store),
                          "--out", str(exports.exports)])
        assert_user_error(result, str(good_graph.store), "Read-only file system")
        assert good_graph.snapshot() == before
        assert not exports.exports.exists()
    assert good_graph.snapshot() == before


def test_read_only_export_folder_is_a_clear_error_and_keeps_the_graph(
    good_graph: Graph, tmp_path: Path
) -> None:
    corpus = smaller_corpus(tmp_path)
    before = good_graph.snapshot()
    with tmpfs(good_graph.exports, read_only=True):
        result = run_cli(["build", str(corpus), *good_graph.args()])
        assert_user_error(result, str(good_graph.exports), "Read-only file system")
        assert good_graph.snapshot() == before


def fill(folder: Path, leave: int) -> None:
    """Fill the file system of `folder` up to `leave` free bytes."""
    stats = os.statvfs(folder)
    free = stats.f_bavail * stats.f_frsize
    (folder / "filler").write_bytes(b"\0" * max(0, free - leave))


def test_full_disk_under_the_store_is_a_clear_error_and_keeps_the_graph(
    good_graph: Graph, tmp_path: Path
) -> None:
    corpus = smaller_corpus(tmp_path)
    with tmpfs(good_graph.root, size="8m"):
        fill(good_graph.root, 64 * 1024)
        before = good_graph.snapshot()
        result = run_cli(["build", str(corpus), "--store", str(good_graph.store),
                          "--out", str(tmp_path / "exports")])
        line = assert_user_error(result, str(good_graph.store))
        assert "no space left" in line.lower(), line
        assert good_graph.snapshot() == before
        assert store_fingerprint(good_graph.store)[0] > 0


def test_full_disk_under_the_exports_is_a_clear_error_and_keeps_the_graph(
    good_graph: Graph, tmp_path: Path
) -> None:
    corpus = smaller_corpus(tmp_path)
    with tmpfs(good_graph.exports, size="2m"):
        fill(good_graph.exports, 64 * 1024)
        before = good_graph.snapshot()
        result = run_cli(["build", str(corpus), *good_graph.args()])
        line = assert_user_error(result, str(good_graph.exports))
        assert "no space left" in line.lower(), line
        assert good_graph.snapshot() == before


# -- a remote store that goes away for a while ---------------------------------------------------


def oxigraph_serve(location: Path, port: int) -> subprocess.Popen:
    """`oxigraph serve` on loopback; returns once it answers."""
    binary = str(Path(sys.executable).with_name("oxigraph"))
    process = subprocess.Popen([binary, "serve", "--location", str(location),
                                "--bind", f"127.0.0.1:{port}"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return process
        except OSError:
            assert process.poll() is None, "oxigraph serve exited"
            time.sleep(0.05)
    process.kill()
    raise RuntimeError("oxigraph serve did not start")


def test_server_survives_a_remote_store_that_is_briefly_away(hostile_graph: Graph,
                                                             tmp_path: Path) -> None:
    from api import create_app

    data = tmp_path / "oxigraph"
    subprocess.run([str(Path(sys.executable).with_name("oxigraph")), "load", "--location",
                    str(data), "--file", str(hostile_graph.exports / "graph.nq")], check=True,
                   capture_output=True)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = create_app({"TESTING": True, "store": f"http://127.0.0.1:{port}", "rate_limit": 0,
                      "query_workers": 1, "query_time_limit_ms": 5000})
    client = app.test_client()
    ask = {"query": "ASK { ?p a <https://w3id.org/paperkg/ns#Paper> }"}
    accept = {"Accept": "application/sparql-results+json"}
    server = oxigraph_serve(data, port)
    try:
        response = client.get("/sparql", query_string=ask, headers=accept)
        assert response.status_code == 200 and response.get_json()["boolean"] is True
        server.terminate()
        server.wait(timeout=10)
        for _ in range(3):
            response = client.get("/sparql", query_string=ask, headers=accept)
            assert response.status_code == 503, response.get_data(as_text=True)
            error = response.get_json()["error"]
            assert error["status"] == 503 and f"127.0.0.1:{port}" in error["message"]
            assert response.headers["Retry-After"]
        assert client.get("/api/papers").status_code == 503
        assert client.get("/healthz").status_code == 503
        server = oxigraph_serve(data, port)
        response = client.get("/sparql", query_string=ask, headers=accept)
        assert response.status_code == 200 and response.get_json()["boolean"] is True
        assert client.get("/api/papers").status_code == 200
        assert client.get("/healthz").status_code == 200
    finally:
        server.kill()
        server.wait()
        app.extensions["paperkg"].close()
