"""The per-client cap on SPARQL queries in flight (429 + Retry-After), and who gets a query
worker when they are scarce: a client under the cap is served while another's slow query runs,
and a client whose query ran to the time limit leaves the last worker to others."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest

from tests.api.conftest import BASE

CARTESIAN = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }"
QUICK = f"SELECT ?l WHERE {{ <{BASE}dataset/cora> ?p ?l }} LIMIT 1"
ACCEPT = {"Accept": "application/sparql-results+json"}
SLOW_CLIENT, OTHER_CLIENT = "10.0.0.1", "10.0.0.2"


def ask(app: Any, client: str, query: str) -> Any:
    return app.test_client().get("/sparql", query_string={"query": query}, headers=ACCEPT,
                                 environ_base={"REMOTE_ADDR": client})


def in_background(app: Any, client: str, query: str) -> tuple[threading.Thread, list[Any]]:
    answers: list[Any] = []
    thread = threading.Thread(target=lambda: answers.append(ask(app, client, query)))
    thread.start()
    return thread, answers


def wait_until(condition: Any, what: str) -> None:
    deadline = time.monotonic() + 30
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"never happened: {what}")
        time.sleep(0.01)


def in_flight(app: Any, client: str) -> int:
    return app.extensions["paperkg_inflight"].count(client)


def warm(app: Any, workers: int) -> None:
    """Start every query worker, so that what follows races queries, not process starts."""
    threads = [in_background(app, f"10.9.9.{n}", "ASK {}")[0] for n in range(workers)]
    for thread in threads:
        thread.join(60)


def test_the_query_beyond_the_cap_gets_429_and_the_places_come_back(make_app):
    app = make_app(query_time_limit_ms=1500, query_workers=3, max_queries_in_flight=2)
    warm(app, 3)
    runner = app.extensions["paperkg"].runner
    slow = [in_background(app, SLOW_CLIENT, CARTESIAN) for _ in range(2)]
    wait_until(lambda: runner.held_by(SLOW_CLIENT) == 2, "two slow queries running")
    assert in_flight(app, SLOW_CLIENT) == 2

    refused = ask(app, SLOW_CLIENT, QUICK)
    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == "2"  # the time limit, 1.5 s, rounded up
    assert json.loads(refused.data) == {"error": {"status": 429, "message": (
        "too many queries at once: this client has 2 SPARQL queries in flight, the limit is 2 "
        "(setting max_queries_in_flight); retry in 2 s")}}
    assert in_flight(app, SLOW_CLIENT) == 2  # the refused one took no place
    # Another address has its own places, and the third worker.
    assert ask(app, OTHER_CLIENT, QUICK).status_code == 200

    for thread, answers in slow:
        thread.join(60)
        assert answers[0].status_code == 503
        assert "time limit" in answers[0].get_json()["error"]["message"]
    # Stopped at the time limit, the queries gave their places back.
    assert in_flight(app, SLOW_CLIENT) == 0
    assert runner.held_by(SLOW_CLIENT) == 0


def test_places_come_back_after_errors(make_app):
    app = make_app(max_queries_in_flight=1)
    # A syntax error found by the store in the worker, twice: the second would be refused
    # with 429 if the first had kept its place.
    for _ in range(2):
        response = ask(app, SLOW_CLIENT, "SELECT * WHERE { ?s ?p }")
        assert response.status_code == 400
        assert response.get_json()["error"]["message"].startswith("line 1, column 25: syntax error")
        assert in_flight(app, SLOW_CLIENT) == 0
    assert ask(app, SLOW_CLIENT, QUICK).status_code == 200
    assert in_flight(app, SLOW_CLIENT) == 0


def test_a_client_under_the_cap_is_served_while_another_query_runs(make_app):
    app = make_app(query_time_limit_ms=3000, query_workers=2)
    warm(app, 2)
    runner = app.extensions["paperkg"].runner
    thread, answers = in_background(app, SLOW_CLIENT, CARTESIAN)
    wait_until(lambda: runner.held_by(SLOW_CLIENT) == 1, "the slow query running")
    quick = ask(app, OTHER_CLIENT, QUICK)
    assert quick.status_code == 200
    assert quick.get_json()["results"]["bindings"]
    assert runner.held_by(SLOW_CLIENT) == 1  # answered while the slow query still ran
    thread.join(60)
    assert answers[0].status_code == 503


def test_a_client_with_a_query_stopped_at_the_limit_runs_one_query_at_a_time(make_app):
    app = make_app(query_time_limit_ms=1000, query_workers=3)
    warm(app, 3)
    runner = app.extensions["paperkg"].runner
    first = ask(app, SLOW_CLIENT, CARTESIAN)
    assert first.status_code == 503 and runner.is_slow_client(SLOW_CLIENT)
    assert not runner.is_slow_client(OTHER_CLIENT)
    # A copy of the stopped query is refused, whoever sends it, until the mark is old.
    copy = ask(app, OTHER_CLIENT, "  " + CARTESIAN)
    assert copy.status_code == 429
    assert 55 <= int(copy.headers["Retry-After"]) <= 60
    assert copy.get_json()["error"]["message"].startswith("this query is slow")
    # The slow client may run one query (a worker is free beyond the last)...
    slow_again = CARTESIAN.replace("COUNT(*)", "COUNT(?a)")
    thread, answers = in_background(app, SLOW_CLIENT, slow_again)
    wait_until(lambda: runner.held_by(SLOW_CLIENT) == 1, "the slow client's query running")
    # ...and no second one while it runs, with Retry-After at most the time limit.
    refused = ask(app, SLOW_CLIENT, QUICK)
    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == "1"
    assert refused.get_json()["error"]["message"].startswith(
        "this client sends slow queries (one ran to the time limit in the last 60 s, or has "
        "run for a quarter of it now), so it may have one query running at a time")
    assert ask(app, OTHER_CLIENT, QUICK).status_code == 200
    thread.join(60)
    assert answers[0].status_code == 503
    # With nothing of its own running, its cheap query is answered.
    assert ask(app, SLOW_CLIENT, QUICK).status_code == 200
    assert in_flight(app, SLOW_CLIENT) == 0
