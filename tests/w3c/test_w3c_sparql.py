"""The W3C SPARQL 1.1 and 1.0 query suites, sent over HTTP to paperkg's endpoint and to
`oxigraph serve-read-only` on the same store: every verdict is the same, except the refusals
listed in REFUSED (docs/security.md).

Syntax tests are sent as written, so their relative IRIs resolve against each endpoint's own
URL. Evaluation tests load each data file as a named graph called by its W3C IRI and send
`default-graph-uri` / `named-graph-uri` as the manifest says, with `BASE <the query file's W3C
IRI>` put before the query so that `FROM <data.ttl>` names the same graph on both servers.
The verdict of a syntax test is parsed (any status but 400) or refused (400); of an
evaluation test, the status and the answer (bindings as a multiset, blank nodes made
anonymous; triples likewise).
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

import pyoxigraph
import pytest

sys.path.insert(0, str(Path(__file__).parent))

import suite  # noqa: E402

from api import create_app  # noqa: E402
from api.query import analyse  # noqa: E402

ROOT = Path(__file__).parent / "sparql"
TESTS = suite.tests(ROOT)
OXIGRAPH = Path(sys.executable).parent / "oxigraph"

# What the endpoint refuses and Oxigraph's server runs (docs/security.md):
REFUSED = {
    # SERVICE: the endpoint never sends queries to other servers.
    **{name: "SERVICE" for name in (
        "sparql11/syntax-fed/test_1", "sparql11/syntax-fed/test_2", "sparql11/syntax-fed/test_3",
        "sparql11/service/service1", "sparql11/service/service2", "sparql11/service/service3",
        "sparql11/service/service4a", "sparql11/service/service5", "sparql11/service/service6",
        "sparql11/service/service7")},
    # FROM / FROM NAMED of a graph the store does not hold (the syntax tests are sent without a
    # BASE, so `FROM <data.ttl>` names a file beside the endpoint, which no store holds).
    **{name: "FROM" for name in (
        "sparql11/syntax-query/test_42",
        "sparql10/syntax-sparql2/syntax-dataset-01", "sparql10/syntax-sparql2/syntax-dataset-02",
        "sparql10/syntax-sparql2/syntax-dataset-03", "sparql10/syntax-sparql2/syntax-dataset-04")},
}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _format(path: Path) -> pyoxigraph.RdfFormat:
    return {".rdf": pyoxigraph.RdfFormat.RDF_XML, ".nt": pyoxigraph.RdfFormat.N_TRIPLES}.get(
        path.suffix, pyoxigraph.RdfFormat.TURTLE)


@pytest.fixture(scope="module")
def store_folder(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("w3c") / "store"
    store = pyoxigraph.Store(str(folder))
    for iri in sorted({iri for test in TESTS if test.kind == "eval"
                       for iri in test.files[1:]}):
        path = suite.path_of(ROOT, iri)
        store.load(path=str(path), format=_format(path), base_iri=iri,
                   to_graph=pyoxigraph.NamedNode(iri))
    store.flush()
    del store
    return str(folder)


@pytest.fixture(scope="module")
def paperkg(store_folder: str) -> Any:
    app = create_app({"TESTING": True, "store": store_folder, "rate_limit": 0,
                      "max_queries_in_flight": 0, "query_time_limit_ms": 20_000,
                      "row_cap": 100_000, "query_workers": 1})
    yield app.test_client()
    app.extensions["paperkg"].close()


@pytest.fixture(scope="module")
def oxigraph(store_folder: str) -> Any:
    if not OXIGRAPH.exists():  # pragma: no cover - a test dependency of the package
        found = shutil.which("oxigraph")
        if found is None:
            pytest.fail("the oxigraph server (PyPI oxigraph==0.5.13, a test dependency) is "
                        "not installed")
    port = _free_port()
    process = subprocess.Popen(
        [str(OXIGRAPH), "serve-read-only", "--location", store_folder,
         "--bind", f"127.0.0.1:{port}"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}/query"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(url + "?query=ASK%7B%7D", timeout=2).read()
            break
        except (urllib.error.URLError, ConnectionError):
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                pytest.fail(f"oxigraph serve-read-only did not start: "
                            f"{process.stderr.read().decode(errors='replace')[-500:]}")
            time.sleep(0.1)
    yield url
    process.terminate()
    process.wait(timeout=10)


def _request(test: suite.W3cTest) -> tuple[str, list[tuple[str, str]], str]:
    """(query text, protocol parameters, Accept) of a test."""
    text = suite.path_of(ROOT, test.query).read_text(encoding="utf-8")
    params: list[tuple[str, str]] = []
    if test.kind == "eval":
        text = f"BASE <{test.query}>\n{text}"
        params = [("default-graph-uri", iri) for iri in test.data] + \
            [("named-graph-uri", iri) for iri in test.graph_data]
    form = analyse(text).form
    accept = "application/n-triples" if form in {"CONSTRUCT", "DESCRIBE"} \
        else "application/sparql-results+json"
    return text, params, accept


def _ask_oxigraph(url: str, text: str, params: list[tuple[str, str]],
                  accept: str) -> tuple[int, bytes]:
    query = urllib.parse.urlencode(params)
    request = urllib.request.Request(
        url + ("?" + query if query else ""), data=text.encode("utf-8"), method="POST",
        headers={"Content-Type": "application/sparql-query", "Accept": accept})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def _ask_paperkg(client: Any, text: str, params: list[tuple[str, str]],
                 accept: str) -> tuple[int, bytes]:
    response = client.post("/sparql", query_string=params, data=text.encode("utf-8"),
                           content_type="application/sparql-query", headers={"Accept": accept})
    return response.status_code, response.data


def _anonymous(term: dict[str, Any]) -> tuple[Any, ...]:
    if term["type"] == "bnode":
        return ("bnode",)
    if term["type"] == "triple":
        value = term["value"]
        return ("triple", _anonymous(value["subject"]), _anonymous(value["predicate"]),
                _anonymous(value["object"]))
    return (term["type"], term["value"], term.get("datatype"), term.get("xml:lang"))


def _answer(status: int, body: bytes, accept: str) -> Any:
    """What is compared: the status, and for a 200 the answer without blank node labels."""
    if status != 200:
        return status
    if accept == "application/n-triples":
        lines = [" ".join("_:b" if part.startswith("_:") else part for part in line.split(" "))
                 for line in body.decode("utf-8").splitlines() if line.strip()]
        return status, Counter(lines)
    document = json.loads(body)
    if "boolean" in document:
        return status, document["boolean"]
    rows = [tuple(sorted((name, _anonymous(term)) for name, term in binding.items()))
            for binding in document["results"]["bindings"]]
    return status, sorted(document["head"].get("vars", [])), Counter(rows)


def _verdicts(kind: str, paperkg: Any, oxigraph: str) -> list[str]:
    differences: list[str] = []
    for test in TESTS:
        if test.kind != kind:
            continue
        text, params, accept = _request(test)
        ours = _ask_paperkg(paperkg, text, params, accept)
        if test.name in REFUSED:
            message = json.loads(ours[1])["error"]["message"] if ours[0] == 400 else ours[1]
            if ours[0] != 400 or REFUSED[test.name] not in str(message):
                differences.append(f"{test.name}: expected a {REFUSED[test.name]} refusal, "
                                   f"got {ours[0]} {ours[1][:200]!r}")
            continue
        theirs = _ask_oxigraph(oxigraph, text, params, accept)
        if kind == "syntax":
            # Parsed or not: a valid query may still fail to run (an unknown function: 500).
            if (ours[0] != 400) != (theirs[0] != 400):
                differences.append(f"{test.name}: paperkg {ours[0]} {ours[1][:300]!r}, "
                                   f"oxigraph {theirs[0]} {theirs[1][:300]!r}")
        elif _answer(*ours, accept) != _answer(*theirs, accept):
            differences.append(f"{test.name}: paperkg {ours[0]} {ours[1][:300]!r}, "
                               f"oxigraph {theirs[0]} {theirs[1][:300]!r}")
    return differences


def test_the_suites_are_all_there():
    counts = Counter((test.suite, test.kind, test.positive) for test in TESTS)
    assert counts == {("sparql11", "syntax", True): 66, ("sparql11", "syntax", False): 40,
                      ("sparql10", "syntax", True): 149, ("sparql10", "syntax", False): 50,
                      ("sparql11", "eval", True): 239, ("sparql10", "eval", True): 278}
    assert set(REFUSED) <= {test.name for test in TESTS}


def test_syntax_verdicts_equal_oxigraph_server(paperkg, oxigraph):
    assert _verdicts("syntax", paperkg, oxigraph) == []


def test_invalid_queries_are_refused(paperkg):
    """Every negative syntax test gets 400, except the one Oxigraph's parser also reads: the
    grammar's longest-token rule makes `?x<?a&&?b>?y` an IRI between two variables, which
    both engines read as comparisons."""
    accepted = []
    for test in TESTS:
        if test.kind == "syntax" and not test.positive:
            status, _ = _ask_paperkg(paperkg, *_request(test))
            if status != 400:
                accepted.append(test.name)
    assert accepted == ["sparql10/syntax-sparql3/syn-bad-26"]


def test_evaluation_answers_equal_oxigraph_server(paperkg, oxigraph):
    assert _verdicts("eval", paperkg, oxigraph) == []
