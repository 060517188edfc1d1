"""The endpoint never reaches the network, never writes, and bounds every query's time and
rows: SERVICE and remote FROM are refused before anything runs, a query past the time limit
is stopped while other queries keep being answered, and results are cut at the row cap."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from conftest import BASE, PROVENANCE

from api.query import QueryRefused, UpdateRefused, check_query, outer_limit, query_form

CARTESIAN = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def listener():
    """A loopback socket that records whether anything connected to it."""
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    server.setblocking(False)
    yield server
    server.close()


def _connected(server: socket.socket) -> bool:
    try:
        connection, _ = server.accept()
    except BlockingIOError:
        return False
    connection.close()
    return True


@pytest.fixture()
def python_connects(monkeypatch):
    """Every outbound connection attempted from Python code in this process."""
    calls: list[object] = []
    real_connect = socket.socket.connect
    real_create = socket.create_connection

    def connect(self, address):
        calls.append(address)
        return real_connect(self, address)

    def create_connection(address, *args, **kwargs):
        calls.append(address)
        return real_create(address, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket, "create_connection", create_connection)
    return calls


def _error(response, status: int) -> str:
    assert response.status_code == status, response.data
    return json.loads(response.data)["error"]["message"]


@pytest.mark.parametrize("template", [
    "SELECT * WHERE {{ SERVICE <{url}> {{ ?s ?p ?o }} }}",
    "SELECT * WHERE {{ ?x ?y ?z OPTIONAL {{ SERVICE SILENT <{url}> {{ ?s ?p ?o }} }} }}",
    "select * where {{ service <{url}> {{ ?s ?p ?o }} }}",
    "SELECT * WHERE {{ \\u0053ERVICE <{url}> {{ ?s ?p ?o }} }}",
    "PREFIX r: <{url}>\nSELECT * WHERE {{ ?a ?b ?c . SERVICE r: {{ ?s ?p ?o }} }}",
    "ASK {{ {{ SELECT ?s WHERE {{ SERVICE <{url}> {{ ?s ?p ?o }} }} }} }}",
    "CONSTRUCT {{ ?s ?p ?o }} WHERE {{ SERVICE <{url}> {{ ?s ?p ?o }} }}",
])
def test_service_is_refused_and_nothing_connects(client, listener, python_connects, template):
    url = f"http://127.0.0.1:{listener.getsockname()[1]}/sparql"
    response = client.get("/sparql", query_string={"query": template.format(url=url)})
    assert "SERVICE is not allowed" in _error(response, 400)
    assert not _connected(listener)
    assert python_connects == []


def test_service_with_a_variable_is_refused(client):
    query = "SELECT * WHERE { VALUES ?e { <http://127.0.0.1:9/> } SERVICE ?e { ?s ?p ?o } }"
    assert "SERVICE" in _error(client.get("/sparql", query_string={"query": query}), 400)


def test_the_word_service_in_a_literal_is_fine(client):
    query = ('PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> '
             'SELECT ?s WHERE { ?s rdfs:label ?l FILTER(?l = "web service from afar") }')
    response = client.get("/sparql", query_string={"query": query})
    assert response.status_code == 200
    assert json.loads(response.data)["results"]["bindings"] == []


def test_remote_from_is_refused(client, listener, python_connects):
    url = f"http://127.0.0.1:{listener.getsockname()[1]}/graph.ttl"
    query = f"SELECT * FROM <{url}> WHERE {{ ?s ?p ?o }}"
    message = _error(client.get("/sparql", query_string={"query": query}), 400)
    assert f"FROM <{url}>" in message
    assert not _connected(listener)
    assert python_connects == []


def test_remote_from_named_is_refused(client):
    query = "SELECT * FROM NAMED <http://127.0.0.1:9/g> WHERE { GRAPH ?g { ?s ?p ?o } }"
    assert "FROM NAMED" in _error(client.get("/sparql", query_string={"query": query}), 400)


def test_remote_from_by_prefixed_name_is_refused(client):
    query = "PREFIX r: <http://127.0.0.1:9/> SELECT * FROM r:graph WHERE { ?s ?p ?o }"
    assert "http://127.0.0.1:9/graph" in _error(
        client.get("/sparql", query_string={"query": query}), 400)


def test_from_a_graph_of_the_store_is_allowed(client):
    query = f"SELECT (COUNT(*) AS ?n) FROM <{PROVENANCE}> WHERE {{ ?s ?p ?o }}"
    response = client.get("/sparql", query_string={"query": query})
    assert response.status_code == 200
    assert json.loads(response.data)["results"]["bindings"][0]["n"]["value"] == "13"


def test_check_query_forms():
    assert query_form("PREFIX a: <urn:a>\n# note\nBASE <urn:b> select * {}") == "SELECT"
    assert query_form("DESCRIBE <urn:a>") == "DESCRIBE"
    assert query_form("# select\nASK {}") == "ASK"
    assert query_form("\\u0041SK {}") == "ASK"
    assert query_form("LOAD <urn:a>") == "UPDATE"
    assert query_form("nonsense") is None
    with pytest.raises(UpdateRefused):
        check_query("PREFIX a: <urn:a> INSERT DATA { a:b a:c a:d }")
    with pytest.raises(QueryRefused):
        check_query("SELECT * FROM <urn:x> { ?s ?p ?o }", graphs=lambda: ["urn:y"])
    assert check_query("SELECT * FROM <urn:y> { ?s ?p ?o }", graphs=lambda: ["urn:y"]) == "SELECT"


def test_query_workers_have_no_network():
    """Defence in depth: a worker could not connect even if a query slipped through."""
    script = (
        "import socket, sys\n"
        "from api.query import isolate_network\n"
        "server = socket.create_server(('127.0.0.1', 0))\n"
        "port = server.getsockname()[1]\n"
        "if not isolate_network():\n"
        "    print('unsupported'); sys.exit(0)\n"
        "try:\n"
        "    socket.create_connection(('127.0.0.1', port), timeout=2)\n"
        "except OSError:\n"
        "    print('isolated'); sys.exit(0)\n"
        "print('connected')\n"
    )
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                            text=True, timeout=60)
    if result.stdout.strip() == "unsupported":
        pytest.skip("this system allows no new network namespace")
    assert result.stdout.strip() == "isolated", result.stderr


# -- time limit ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def limited_app(make_app):
    return make_app(query_time_limit_ms=800, query_workers=2)


def test_time_limit_stops_the_query_and_others_are_answered(limited_app):
    order: list[str] = []
    slow_response: list[object] = []

    def slow() -> None:
        slow_response.append(limited_app.test_client().get(
            "/sparql", query_string={"query": CARTESIAN}))
        order.append("slow")

    # Warm both workers so the race below is between queries, not process starts.
    client = limited_app.test_client()
    for _ in range(2):
        assert client.get("/sparql", query_string={"query": "ASK {}"}).status_code == 200
    thread = threading.Thread(target=slow)
    thread.start()
    quick = client.get("/sparql", query_string={
        "query": f"SELECT ?l WHERE {{ <{BASE}dataset/cora> ?p ?l }} LIMIT 1"})
    order.append("quick")
    thread.join(timeout=60)
    assert quick.status_code == 200
    assert order == ["quick", "slow"]
    response = slow_response[0]
    assert response.status_code == 503
    assert response.headers["Retry-After"].isdigit()
    assert json.loads(response.data) == {"error": {
        "status": 503, "message": "query exceeded the time limit of 800 ms"}}
    # The killed worker was replaced: queries still run.
    again = client.get("/sparql", query_string={"query": "ASK { ?s ?p ?o }"})
    assert json.loads(again.data)["boolean"] is True


def test_timed_out_worker_process_is_gone(limited_app):
    runner = limited_app.extensions["paperkg"].runner
    client = limited_app.test_client()
    client.get("/sparql", query_string={"query": "ASK {}"})
    before = {worker.process.pid for worker in runner._all}
    # Not CARTESIAN itself: a copy of a query stopped at the time limit is not run again
    # for a minute (the test above stopped one).
    response = client.get("/sparql", query_string={
        "query": CARTESIAN.replace("COUNT(*)", "COUNT(?a)")})
    assert response.status_code == 503
    after = {worker.process.pid for worker in runner._all}
    assert len(after) == 2
    assert before - after  # one worker was killed and replaced
    for pid in before - after:
        assert not Path(f"/proc/{pid}").exists() or \
            Path(f"/proc/{pid}/status").read_text().find("State:\tZ") >= 0


# -- row cap -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def capped_client(make_app):
    return make_app(row_cap=5, query_workers=1).test_client()


def test_select_is_cut_at_the_row_cap(capped_client):
    query = ("PREFIX pkg: <https://w3id.org/paperkg/ns#> "
             "SELECT ?p WHERE { ?p a pkg:Paper } ORDER BY ?p")
    response = capped_client.get("/sparql", query_string={"query": query})
    assert response.status_code == 200
    assert response.headers["X-Paperkg-Truncated"] == "true"
    document = json.loads(response.data)
    assert [row["p"]["value"] for row in document["results"]["bindings"]] == [
        f"{BASE}paper/p0{n}" for n in range(1, 6)]
    assert document["paperkg"]["truncated"] is True
    assert document["paperkg"]["rowCap"] == 5


def test_csv_is_cut_at_the_row_cap(capped_client):
    query = "PREFIX pkg: <https://w3id.org/paperkg/ns#> SELECT ?p WHERE { ?p a pkg:Paper }"
    response = capped_client.get("/sparql", query_string={"query": query},
                                 headers={"Accept": "text/csv"})
    assert response.headers["X-Paperkg-Truncated"] == "true"
    assert len(response.data.decode().splitlines()) == 6  # header + 5 rows


def test_construct_is_cut_at_the_row_cap(capped_client):
    response = capped_client.get("/sparql", query_string={
        "query": "CONSTRUCT WHERE { ?s ?p ?o }"}, headers={"Accept": "application/n-triples"})
    assert response.headers["X-Paperkg-Truncated"] == "true"
    assert len(response.data.decode().splitlines()) == 5


def test_results_under_the_cap_are_not_flagged(capped_client):
    response = capped_client.get("/sparql", query_string={
        "query": "SELECT ?s WHERE { ?s a <https://w3id.org/paperkg/ns#Metric> }"})
    assert "X-Paperkg-Truncated" not in response.headers
    assert "paperkg" not in json.loads(response.data)
    assert response.headers["X-Paperkg-Rows"] == "2"


def test_outer_limit():
    assert outer_limit("SELECT * WHERE { ?s ?p ?o } LIMIT 10") == 10
    assert outer_limit("SELECT * WHERE { ?s ?p ?o }\nORDER BY ?s\nlimit 3 offset 2\n") == 3
    assert outer_limit("SELECT * WHERE { ?s ?p ?o } OFFSET 5 LIMIT 7") == 7
    # A subquery's LIMIT, a commented one, or none at all do not count.
    assert outer_limit("SELECT * { { SELECT ?s { ?s ?p ?o } LIMIT 5 } }") is None
    assert outer_limit("SELECT * WHERE { ?s ?p ?o } # LIMIT 5") is None
    assert outer_limit("SELECT * WHERE { ?s ?p ?o }") is None


def test_a_commented_limit_does_not_lift_the_cap(capped_client):
    query = "SELECT ?s WHERE { ?s ?p ?o } # LIMIT 3"
    response = capped_client.get("/sparql", query_string={"query": query})
    assert response.headers["X-Paperkg-Truncated"] == "true"
    assert len(json.loads(response.data)["results"]["bindings"]) == 5


def test_own_limit_under_the_cap_is_served_whole(capped_client):
    query = "SELECT ?s WHERE { ?s a <https://w3id.org/paperkg/ns#Paper> } ORDER BY ?s LIMIT 2"
    response = capped_client.get("/sparql", query_string={"query": query})
    assert "X-Paperkg-Truncated" not in response.headers
    assert [b["s"]["value"] for b in json.loads(response.data)["results"]["bindings"]] == [
        f"{BASE}paper/p01", f"{BASE}paper/p02"]
