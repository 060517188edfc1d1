"""Rate limiting (429 + Retry-After), CORS from the setting, 413 for oversized requests, and
a client's rate limit and slow-query budget as one figure across the worker processes of a
real server."""

from __future__ import annotations

import json
import threading
import time

import pytest
from server_workers import Answer, Workers

from api.limits import TokenBucket

ASK = {"query": "ASK {}"}


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


@pytest.fixture()
def two_workers(store_location, tmp_path):
    """`api.serve --workers 2`; which worker answered each request is read from its log."""
    server = Workers(store_location, "query_time_limit_ms=4000", "rate_limit=1",
                     "rate_limit_burst=40", f"exports_dir={tmp_path}")
    yield server
    server.close()


@pytest.mark.slow
def test_slow_query_budget_is_the_same_in_every_worker(two_workers):
    server = two_workers
    client = "127.0.5.1"
    first = server.ask(client, CARTESIAN)
    assert first.status == 503 and "time limit" in first.message
    # The stopped query, again: refused by both workers, with a wait that only goes down.
    again = server.from_every_worker(lambda: server.ask(client, "  " + CARTESIAN))
    assert all(answer.status == 429 and answer.message.startswith("this query is slow")
               for answer in again), again
    waits = [int(answer.retry_after or 0) for answer in again]
    assert 55 <= waits[-1] and waits == sorted(waits, reverse=True) and waits[0] <= 60
    # Another slow query of the client runs in one worker...
    answers: list[Answer] = []
    other_slow = CARTESIAN.replace("COUNT(*)", "COUNT(?a)")
    running = threading.Thread(target=lambda: answers.append(server.ask(client, other_slow)))
    running.start()
    time.sleep(0.5)
    # ...so its cheap queries are refused by either worker while it runs: one figure.
    refused = server.from_every_worker(lambda: server.ask(client, QUICK))
    assert running.is_alive()
    for answer in refused:
        assert answer.status == 429, answer
        assert 1 <= int(answer.retry_after or 0) <= 4
        assert "so it may have one query running at a time, and one is running" in \
            answer.message
    running.join(60)
    assert answers[0].status == 503
    # With nothing of its own running, both workers answer its cheap queries.
    answered = server.from_every_worker(lambda: server.ask(client, QUICK))
    assert [answer.status for answer in answered] == [200] * len(answered)


@pytest.mark.slow
def test_rate_limit_is_one_bucket_across_workers(two_workers):
    server = two_workers
    client = "127.0.5.2"
    spent = [server.get(client, "/api/papers?per_page=1") for _ in range(40)]
    assert [answer.status for answer in spent] == [200] * 40
    # Then every worker refuses, whichever of them the burst went to (one worker may take a
    # client's connections one after another, and then the other has spent nothing itself).
    refused = server.from_every_worker(lambda: server.get(client, "/api/papers?per_page=1"))
    for answer in refused:
        assert answer.status == 429 and int(answer.retry_after or 0) >= 1, answer
        assert answer.message.startswith("too many requests: the limit is 1 a minute")
