"""Rate limiting (429 + Retry-After), CORS from the setting, 413 for oversized requests, and
a client's rate limit and slow-query budget as one figure across the worker processes of a
real server."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from api.limits import TokenBucket

ASK = {"query": "ASK {}"}
ROOT = Path(__file__).resolve().parents[2]


def test_token_bucket_refills():
    now = [0.0]
    bucket = TokenBucket(60, 2, clock=lambda: now[0])  # one token a second, two at once
    assert bucket.take("a") == 0
    assert bucket.take("a") == 0
    assert bucket.take("a") == pytest.approx(1.0)
    assert bucket.take("b") == 0  # clients are counted apart
    now[0] = 1.0
    assert bucket.take("a") == 0
    assert bucket.take("a") > 0


def test_rate_limit_answers_429_with_retry_after(make_app):
    client = make_app(rate_limit=6, rate_limit_burst=3).test_client()
    statuses = [client.get("/api/papers?per_page=1").status_code for _ in range(3)]
    assert statuses == [200, 200, 200]
    response = client.get("/api/papers?per_page=1")
    assert response.status_code == 429
    assert response.headers["Retry-After"] == "10"  # 6 a minute: one every 10 s
    assert json.loads(response.data)["error"]["status"] == 429
    # Another client address has its own bucket; liveness checks are never limited.
    other = client.get("/api/papers?per_page=1", environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert other.status_code == 200
    assert client.get("/healthz").status_code == 200
    assert client.get("/sparql", query_string=ASK).status_code == 429


def test_cors_for_an_allowed_origin(client):
    response = client.get("/api/papers?per_page=1", headers={"Origin": "https://allowed.example"})
    assert response.headers["Access-Control-Allow-Origin"] == "https://allowed.example"
    assert "X-Paperkg-Truncated" in response.headers["Access-Control-Expose-Headers"]
    assert "Origin" in response.headers["Vary"]


def test_no_cors_for_other_origins(client):
    response = client.get("/sparql", query_string=ASK, headers={"Origin": "https://evil.example"})
    assert response.status_code == 200
    assert "Access-Control-Allow-Origin" not in response.headers


def test_cors_preflight(client):
    response = client.options("/sparql", headers={
        "Origin": "https://allowed.example", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "Content-Type, X-Custom"})
    assert response.status_code == 204
    assert response.headers["Access-Control-Allow-Origin"] == "https://allowed.example"
    assert "POST" in response.headers["Access-Control-Allow-Methods"]
    assert response.headers["Access-Control-Allow-Headers"] == "Content-Type"


def test_preflight_from_another_origin_gets_no_grant(client):
    response = client.options("/sparql", headers={
        "Origin": "https://evil.example", "Access-Control-Request-Method": "POST"})
    assert "Access-Control-Allow-Origin" not in response.headers
    assert "Access-Control-Allow-Methods" not in response.headers


def test_any_origin(make_app):
    client = make_app(cors_origins="*").test_client()
    response = client.get("/healthz", headers={"Origin": "https://anyone.example"})
    assert response.headers["Access-Control-Allow-Origin"] == "*"


def test_oversized_post_is_413(make_app):
    client = make_app(max_request_bytes=200).test_client()
    query = "ASK { " + "?s ?p ?o . " * 40 + "}"
    response = client.post("/sparql", data=query, content_type="application/sparql-query")
    assert response.status_code == 413
    assert "max_request_bytes" in json.loads(response.data)["error"]["message"]
    form = client.post("/sparql", data={"query": query})
    assert form.status_code == 413


def test_oversized_query_string_is_413(make_app):
    client = make_app(max_request_bytes=200).test_client()
    response = client.get("/sparql", query_string={"query": "ASK { " + "?s ?p ?o . " * 40 + "}"})
    assert response.status_code == 413
    assert client.get("/sparql", query_string=ASK).status_code == 200


# -- one figure per client across the worker processes of a real server ---------------------

CARTESIAN = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }"
QUICK = "ASK { ?s ?p ?o }"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _workers(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii") as handle:
                    if int(handle.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except OSError:
                continue
    return sorted(found)


def _get(port: int, source: str, path: str) -> tuple[int, str | None, dict[str, Any]]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60,
                                            source_address=(source, 0))
    try:
        connection.request("GET", path, headers={"Accept": "application/sparql-results+json"})
        response = connection.getresponse()
        return response.status, response.getheader("Retry-After"), json.loads(response.read())
    finally:
        connection.close()


def _ask(port: int, source: str, query: str) -> tuple[int, str | None, dict[str, Any]]:
    return _get(port, source, "/sparql?" + urlencode({"query": query}))


@pytest.fixture()
def two_workers(store_location, tmp_path):
    """`api.serve --workers 2` and a way to choose the worker that answers the next
    connection (the other is stopped: it accepts nothing until it goes on)."""
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "api.serve", "--store", store_location, "--port", str(port),
         "--workers", "2", "--threads", "4", "--log-level", "warning",
         "--set", "query_time_limit_ms=4000", "--set", "rate_limit=1",
         "--set", "rate_limit_burst=40", "--set", f"exports_dir={tmp_path}"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    stopped: list[int] = []
    deadline = time.monotonic() + 60
    while True:
        assert server.poll() is None, "the server exited"
        workers = _workers(server.pid)
        try:
            if len(workers) == 2 and _get(port, "127.0.5.9", "/healthz")[0] == 200:
                break
        except OSError:
            pass
        assert time.monotonic() < deadline, "the server never got ready"
        time.sleep(0.2)

    def only(index: int) -> None:
        for pid in stopped:
            os.kill(pid, signal.SIGCONT)
        stopped.clear()
        for pid in workers:
            if pid != workers[index]:
                os.kill(pid, signal.SIGSTOP)
                stopped.append(pid)

    yield port, only
    for pid in stopped:
        os.kill(pid, signal.SIGCONT)
    server.terminate()
    server.wait(timeout=30)


@pytest.mark.slow
def test_slow_query_budget_is_the_same_in_every_worker(two_workers):
    port, only = two_workers
    client = "127.0.5.1"
    only(0)
    status, _, body = _ask(port, client, CARTESIAN)
    assert status == 503 and "time limit" in body["error"]["message"]
    # The stopped query, again: refused in both workers, with the same wait.
    waits = []
    for worker in (1, 0):
        only(worker)
        status, retry_after, body = _ask(port, client, "  " + CARTESIAN)
        assert status == 429 and body["error"]["message"].startswith("this query is slow")
        waits.append(int(retry_after))
    assert 55 <= waits[1] <= waits[0] <= 60
    # Another slow query of the client runs in the second worker...
    only(1)
    answers: list[tuple[int, str | None, dict[str, Any]]] = []
    other_slow = CARTESIAN.replace("COUNT(*)", "COUNT(?a)")
    running = threading.Thread(target=lambda: answers.append(_ask(port, client, other_slow)))
    running.start()
    time.sleep(0.5)
    # ...so its cheap queries are refused in either worker while it runs: one figure.
    for worker in (0, 1, 0, 1):
        only(worker)
        status, retry_after, body = _ask(port, client, QUICK)
        assert running.is_alive()
        assert status == 429, body
        assert 1 <= int(retry_after) <= 4
        assert "so it may have one query running at a time, and one is running" in \
            body["error"]["message"]
    only(1)
    running.join(60)
    assert answers[0][0] == 503
    # With nothing of its own running, both workers answer its cheap queries.
    for worker in (0, 1):
        only(worker)
        assert _ask(port, client, QUICK)[0] == 200


@pytest.mark.slow
def test_rate_limit_is_one_bucket_across_workers(two_workers):
    port, only = two_workers
    client = "127.0.5.2"
    statuses = []
    for n in range(40):  # the burst, spent half in each worker
        only(n % 2)
        statuses.append(_get(port, client, "/api/papers?per_page=1")[0])
    assert statuses == [200] * 40
    for worker in (0, 1):
        only(worker)
        status, retry_after, body = _get(port, client, "/api/papers?per_page=1")
        assert status == 429 and retry_after is not None and int(retry_after) >= 1
        assert body["error"]["message"].startswith("too many requests: the limit is 1 a minute")
