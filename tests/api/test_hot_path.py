"""The hot path answers a plain GET of a query that ran cheaply before with the bytes Flask
would send, and gives way to Flask whenever a rule might hold the query back."""

from __future__ import annotations

import sys
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


def test_admit_sees_a_running_query_of_the_client_in_a_shared_table():
    table = ClientTable.shared()
    rules: dict[str, Any] = {"rate_per_s": 0.0, "burst": 0, "cap": 0, "memory_s": 60.0}
    assert table.admit("10.3.0.1", "query:a", 5.0, **rules)
    lease = table.start_running("10.3.0.1", 5.0)
    assert not table.admit("10.3.0.1", "query:a", 5.0, **rules)
    assert table.admit("10.3.0.2", "query:a", 5.0, **rules)  # another client
    table.stop_running(lease)
    assert table.admit("10.3.0.1", "query:a", 5.0, **rules)


def test_a_key_found_across_two_slots_is_no_lease():
    # admit searches the table's bytes first: a client's key whose bytes end one lease slot
    # and begin the next is found there, and is no lease of the client.
    table = ClientTable()
    rules: dict[str, Any] = {"rate_per_s": 0.0, "burst": 0, "cap": 1, "memory_s": 60.0}
    key = table.key("10.4.0.1").to_bytes(8, sys.byteorder)
    table._run_keys[0] = int.from_bytes(bytes(4) + key[:4], sys.byteorder)
    table._run_keys[1] = int.from_bytes(key[4:] + bytes(4), sys.byteorder)
    table._flight_keys[2] = int.from_bytes(bytes(4) + key[:4], sys.byteorder)
    table._flight_keys[3] = int.from_bytes(key[4:] + bytes(4), sys.byteorder)
    assert table.admit("10.4.0.1", "query:a", 5.0, **rules)
    table._run_keys[1] = int.from_bytes(key, sys.byteorder)
    assert not table.admit("10.4.0.1", "query:a", 5.0, **rules)


def test_the_engines_own_answer_follows_the_store_to_its_next_generation(tmp_path, exports_dir):
    import pyoxigraph

    from api import create_app
    from graph.store import EmbeddedStore

    def triples(count: int) -> list[Any]:
        return [pyoxigraph.Quad(pyoxigraph.NamedNode(f"http://ex/{i}"),
                                pyoxigraph.NamedNode("http://ex/p"), pyoxigraph.Literal(str(i)))
                for i in range(count)]

    location = str(tmp_path / "store")
    writer = EmbeddedStore(location)
    writer.replace_all(triples(2))
    # cheap_query_ms: a loaded machine must not make these queries look slow
    app = create_app({"TESTING": True, "store": location, "rate_limit": 0,
                      "cheap_query_ms": 2000, "exports_dir": str(exports_dir)})
    reached = _counting(app)
    client = app.test_client()
    count = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"
    ask = "ASK { <http://ex/2> ?p ?o }"
    try:
        before = [(_get(client, count).json, _get(client, ask).json) for _ in range(3)]
        plans = app.wsgi_app.plans.values()
        assert sorted(type(plan.direct).__name__ for plan in plans) == ["Direct", "Direct"]
        writer.replace_all(triples(3))  # a new generation, published under the open app
        after = [(_get(client, count).json, _get(client, ask).json) for _ in range(3)]
    finally:
        app.extensions["paperkg"].close()
        writer.close()
    assert before[0] == before[2]
    assert before[2][0]["results"]["bindings"][0]["n"]["value"] == "2"
    assert before[2][1]["boolean"] is False
    assert after[0][0]["results"]["bindings"][0]["n"]["value"] == "3"
    assert after[0][1]["boolean"] is True
    assert after[0] == after[2]
    assert len(reached) == 4  # each query learned once in each generation
