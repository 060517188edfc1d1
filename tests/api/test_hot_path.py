"""The hot path answers a plain GET of a query that ran cheaply before with the bytes Flask
would send, and gives way to Flask whenever a rule might hold the query back."""

from __future__ import annotations

from typing import Any

import pytest

from api.hot_path import HotPath
from api.query.clients import ClientTable

QUERY = "SELECT ?s WHERE { ?s a <https://w3id.org/paperkg/ns#Paper> } ORDER BY ?s"
JSON = "application/sparql-results+json"
HEADERS = ("Content-Type", "Content-Length", "Vary", "X-Paperkg-Rows", "X-Paperkg-Truncated")


def _counting(app: Any) -> list[str]:
    """Paths of the requests that reached Flask."""
    hot: HotPath = app.wsgi_app
    reached: list[str] = []
    inner = hot.flask

    def flask(environ: dict[str, Any], start_response: Any) -> Any:
        reached.append(environ["PATH_INFO"])
        return inner(environ, start_response)

    hot.flask = flask
    return reached


def _get(client: Any, query: str = QUERY, accept: str | None = JSON, **kw: Any) -> Any:
    headers = {"Accept": accept} if accept else {}
    return client.get("/sparql", query_string={"query": query}, headers=headers, **kw)


def _shown(response: Any) -> tuple[int, bytes, dict[str, str | None]]:
    return response.status_code, response.data, {h: response.headers.get(h) for h in HEADERS}


@pytest.mark.parametrize("accept", [JSON, "text/csv", None])
def test_a_repeated_query_is_answered_before_flask_with_the_same_bytes(make_app, accept):
    app = make_app(row_cap=5)
    reached = _counting(app)
    client = app.test_client()
    answers = [_shown(_get(client, accept=accept)) for _ in range(3)]
    assert reached == ["/sparql"]  # learned from Flask's answer, answered here after
    assert answers[0] == answers[1] == answers[2]
    assert answers[2][0] == 200 and answers[2][2]["X-Paperkg-Truncated"] == "true"
    assert answers[2][2]["X-Paperkg-Rows"] == "5"


def test_other_shapes_always_reach_flask(make_app):
    app = make_app()
    reached = _counting(app)
    client = app.test_client()
    for _ in range(3):
        _get(client, accept="application/json")  # an alias: negotiated by Flask
        client.get("/sparql", query_string={"query": QUERY},  # CORS: decided by Flask
                   headers={"Origin": "https://allowed.example"})
        client.get("/sparql", query_string={"query": QUERY, "default-graph-uri": "urn:g"})
        client.post("/sparql", data=QUERY, content_type="application/sparql-query")
    assert len(reached) == 12


def test_a_slow_client_gets_flasks_429(make_app):
    app = make_app()
    client = app.test_client()
    for _ in range(2):
        assert _get(client).status_code == 200
    table: ClientTable = app.extensions["paperkg_clients"]
    table.mark_slow("127.0.0.1")
    table.start_running("127.0.0.1")  # one of its queries runs in a query worker
    refused = _get(client)
    assert refused.status_code == 429 and refused.headers["Retry-After"]
    assert "one query running at a time" in refused.get_json()["error"]["message"]


def test_the_rate_limit_counts_hot_answers(make_app):
    app = make_app(rate_limit=1, rate_limit_burst=4)
    reached = _counting(app)
    client = app.test_client()
    statuses = [_get(client).status_code for _ in range(5)]
    assert statuses == [200, 200, 200, 200, 429]
    assert len(reached) == 2  # learning the query, and the refusal
    assert int(_get(client).headers["Retry-After"]) >= 1


def test_admit_changes_nothing_when_it_refuses():
    table = ClientTable()
    now = 100.0
    rules: dict[str, Any] = {"rate_per_s": 1.0, "burst": 2, "cap": 2, "memory_s": 60.0}
    assert not table.admit("10.2.0.1", "query:a", now, **rules)  # no bucket yet
    assert table.take_token("10.2.0.1", 1.0, 2, now) == 0
    assert table.admit("10.2.0.1", "query:a", now, **rules)  # the second token
    assert not table.admit("10.2.0.1", "query:a", now, **rules)  # none left
    assert table.take_token("10.2.0.1", 1.0, 2, now + 0.5) > 0  # nothing given back
    assert table.admit("10.2.0.1", "query:a", now + 2, **rules)
    table.mark_slow("query:b", now)
    assert not table.admit("10.2.0.1", "query:b", now + 3, **rules)
    assert table.admit("10.2.0.1", "query:b", now + 64, **rules)  # the mark is forgotten
    table.enter("10.2.0.2", 2)
    assert table.admit("10.2.0.2", "query:a", now, rate_per_s=0, burst=0, cap=2,
                       memory_s=60.0)
    table.enter("10.2.0.2", 2)
    assert not table.admit("10.2.0.2", "query:a", now, rate_per_s=0, burst=0, cap=2,
                           memory_s=60.0)
    assert table.in_flight("10.2.0.2") == 2  # the admitted query took no place
