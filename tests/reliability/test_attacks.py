"""Attacks on the HTTP service, against a graph built by the real pipeline from a hostile
corpus: SSRF through every URL the service is handed, path traversal, XSS, oversized requests
and header injection."""

from __future__ import annotations

import http.client
import json
import socket
import threading
from collections.abc import Iterator
from html.parser import HTMLParser
from urllib.parse import quote, urlsplit

import pytest
from werkzeug.serving import make_server

from api import create_app

from .conftest import Graph, hostile_app_config

# -- fixtures: a live server, a listener that must hear nothing, a record of connections ----


@pytest.fixture(scope="module")
def live(hostile_graph: Graph) -> Iterator[tuple[str, int]]:
    """The app on a loopback port, served by werkzeug: raw bytes on the wire, as a proxy
    or the HTTP server would pass them."""
    app = create_app(hostile_app_config(hostile_graph))
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield "127.0.0.1", server.server_port
    server.shutdown()
    app.extensions["paperkg"].close()


class Listener:
    """A TCP listener on loopback recording every connection made to it."""

    def __init__(self) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.accepted: list[tuple[str, int]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                conn, peer = self.sock.accept()
            except OSError:
                continue
            self.accepted.append(peer)
            conn.close()

    def url(self, path: str = "x") -> str:
        return f"http://127.0.0.1:{self.port}/{path}"

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        self.sock.close()


@pytest.fixture
def listener() -> Iterator[Listener]:
    bait = Listener()
    yield bait
    bait.close()


@pytest.fixture
def connects(monkeypatch) -> list:
    """Every INET connection this process opens (the listener's accepts are not connects)."""
    made: list = []
    original = socket.socket.connect

    def connect(self, address):
        if self.family in (socket.AF_INET, socket.AF_INET6):
            made.append(address)
        return original(self, address)

    monkeypatch.setattr(socket.socket, "connect", connect)
    return made


def error_of(response) -> dict:
    body = response.get_json()
    assert set(body) == {"error"} and body["error"]["status"] == response.status_code, body
    return body["error"]


# -- SSRF ---------------------------------------------------------------------------------------

REFUSED_QUERIES = [
    "SELECT * WHERE {{ SERVICE <{url}> {{ ?s ?p ?o }} }}",
    "SELECT * WHERE {{ SERVICE SILENT <{url}> {{ ?s ?p ?o }} }}",
    "select * where {{ service <{url}> {{ ?s ?p ?o }} }}",
    "PREFIX r: <{base}> SELECT * WHERE {{ SERVICE r:sparql {{ ?s ?p ?o }} }}",
    "SELECT * WHERE {{ \\u0053ERVICE <{url}> {{ ?s ?p ?o }} }}",
    "SELECT * WHERE {{ ?a ?b ?c OPTIONAL {{ SERVICE <{url}> {{ ?s ?p ?o }} }} }}",
    "SELECT * FROM <{url}> WHERE {{ ?s ?p ?o }}",
    "SELECT * FROM NAMED <{url}> WHERE {{ GRAPH ?g {{ ?s ?p ?o }} }}",
    "CONSTRUCT {{ ?s ?p ?o }} FROM <{url}> WHERE {{ ?s ?p ?o }}",
    "ASK FROM <{url}> {{ ?s ?p ?o }}",
]
UPDATES = ["LOAD <{url}>", "LOAD SILENT <{url}> INTO GRAPH <urn:g>",
           "CLEAR ALL ; LOAD <{url}>", "INSERT DATA {{ <urn:a> <urn:b> <{url}> }}"]


@pytest.mark.parametrize("template", REFUSED_QUERIES)
def test_queries_that_would_fetch_are_refused_and_fetch_nothing(
    hostile_app, listener: Listener, connects: list, template: str
) -> None:
    query = template.format(url=listener.url("sparql"), base=listener.url(""))
    client = hostile_app.test_client()
    for response in (client.get("/sparql", query_string={"query": query}),
                     client.post("/sparql", data={"query": query}),
                     client.post("/sparql", data=query.encode(),
                                 content_type="application/sparql-query")):
        assert response.status_code == 400, (query, response.status_code)
        assert "never" in error_of(response)["message"]
    assert listener.accepted == [] and connects == []


@pytest.mark.parametrize("template", UPDATES)
def test_updates_are_refused_and_fetch_nothing(hostile_app, listener: Listener, connects: list,
                                               template: str) -> None:
    update = template.format(url=listener.url("data.ttl"))
    client = hostile_app.test_client()
    for response in (client.get("/sparql", query_string={"update": update}),
                     client.get("/sparql", query_string={"query": update}),
                     client.post("/sparql", data={"update": update}),
                     client.post("/sparql", data=update.encode(),
                                 content_type="application/sparql-update")):
        assert response.status_code == 403, (update, response.status_code)
        error_of(response)
    assert listener.accepted == [] and connects == []


def test_every_url_parameter_is_looked_up_never_fetched(hostile_app, listener: Listener,
                                                         connects: list) -> None:
    url = listener.url("thing")
    quoted = quote(url, safe="")
    client = hostile_app.test_client()
    requests = [
        ("/sparql", {"query": "SELECT * WHERE { ?s ?p ?o } LIMIT 1", "default-graph-uri": url}),
        ("/sparql", {"query": "SELECT * WHERE { GRAPH ?g { ?s ?p ?o } } LIMIT 1",
                     "named-graph-uri": url}),
        ("/sparql", {"query": f"DESCRIBE <{url}>"}),
        ("/sparql", {"query": f'CONSTRUCT {{ <urn:a> <urn:b> "{{\\"@context\\": \\"{url}\\"}}" }}'
                              " WHERE {}"}),
        ("/api/neighbourhood", {"node": url}),
        ("/api/path", {"from": url, "to": url}),
        ("/api/similar", {"paper": url}),
        ("/api/search", {"q": url}),
        ("/api/entities", {"q": url}),
        ("/viz/neighbourhood", {"node": url}),
        ("/search", {"q": url}),
        (f"/paper/{quoted}", {}),
        (f"/id/paper/{quoted}", {}),
        (f"/exports/{quoted}", {}),
    ]
    for accept in ("application/ld+json", "text/html", "*/*"):
        for path, params in requests:
            response = client.get(path, query_string=params, headers={"Accept": accept})
            assert response.status_code < 500, (path, params, response.status_code)
    assert listener.accepted == [] and connects == []


# -- path traversal -----------------------------------------------------------------------------

SECRET_MARKERS = ("TOP-SECRET-BESIDE-EXPORTS", "root:x:0:0", "Blueprint(", "import ",
                  "def create_app")
TRAVERSALS = [
    "../secret.txt", "%2e%2e/secret.txt", "%2E%2E%2Fsecret.txt", "..%2fsecret.txt",
    "%252e%252e%252fsecret.txt", "..%5csecret.txt", "..\\secret.txt", "....//secret.txt",
    "/etc/passwd", "%2fetc%2fpasswd", "//etc/passwd", "..%2f..%2f..%2f..%2fetc%2fpasswd",
    "%c0%ae%c0%ae/secret.txt", "graph.ttl/../../secret.txt", "./../secret.txt",
    "%2e%2e%5c%2e%2e%5cetc%5cpasswd", "..;/secret.txt", "graph.ttl%00.txt",
]
STATIC_TRAVERSALS = [t.replace("secret.txt", "serve.py").replace("graph.ttl", "vendor")
                     for t in TRAVERSALS] + ["vendor/../../__init__.py",
                                             "vendor/vis-network/../../../serve.py"]


def raw_get(live: tuple[str, int], path: str, headers: dict | None = None
            ) -> tuple[int, list[tuple[str, str]], bytes]:
    connection = http.client.HTTPConnection(*live, timeout=30)
    try:
        connection.putrequest("GET", path, skip_accept_encoding=True)
        for name, value in (headers or {}).items():
            connection.putheader(name, value)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.getheaders(), response.read()
    finally:
        connection.close()


@pytest.mark.parametrize("prefix,attempts", [("/exports/", TRAVERSALS),
                                             ("/static/", STATIC_TRAVERSALS)])
def test_path_traversal_reaches_nothing_outside(live, prefix: str, attempts: list[str]) -> None:
    assert raw_get(live, prefix + ("graph.ttl" if prefix == "/exports/" else
                                   "vendor/vis-network/vis-network.min.js"))[0] == 200
    for attempt in attempts:
        status, headers, body = raw_get(live, prefix + attempt)
        if status in (301, 308):  # "//" merged: the redirect must stay under the prefix
            location = urlsplit(dict(headers)["Location"]).path
            assert location.startswith(prefix), (attempt, location)
            status, _, body = raw_get(live, location)
        assert status in (400, 404), (attempt, status)
        text = body.decode("utf-8", "replace")
        assert not any(marker in text for marker in SECRET_MARKERS), (attempt, text[:200])


def test_hidden_and_temporary_export_files_are_not_served(live, hostile_graph: Graph) -> None:
    (hostile_graph.exports / ".graph.nq.x1y2.tmp").write_text("HALF-WRITTEN\n")
    (hostile_graph.exports / ".paperkg-sort-abc").mkdir(exist_ok=True)
    (hostile_graph.exports / ".paperkg-sort-abc" / "raw.nt").write_text("HALF-SORTED\n")
    try:
        for path in ("/exports/.graph.nq.x1y2.tmp", "/exports/.paperkg-sort-abc/raw.nt",
                     "/exports/%2egraph.nq.x1y2.tmp", "/exports/.paperkg-sort-abc%2fraw.nt"):
            status, _, body = raw_get(live, path)
            assert status == 404 and b"HALF" not in body, path
        status, _, body = raw_get(live, "/exports/")
        assert status == 200 and b".graph" not in body and b"paperkg-sort" not in body
    finally:
        (hostile_graph.exports / ".graph.nq.x1y2.tmp").unlink()
        (hostile_graph.exports / ".paperkg-sort-abc" / "raw.nt").unlink()
        (hostile_graph.exports / ".paperkg-sort-abc").rmdir()


# -- XSS ------------------------------------------------------------------------------------------

HOSTILE = ["<script>alert('title')</script>", "<img src=x onerror=alert('img')>",
           "</script><script>alert('json')</script>", "<script>alert('abstract')</script>",
           "<img src=x onerror=alert('claim')>", "<b onmouseover=alert('venue')>",
           "<svg onload=alert('kw')>", "javascript:alert('url')"]


class Markup(HTMLParser):
    """What a browser would make of a page: its elements, attributes, scripts and text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []
        self.text: list[str] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            value = value or ""
            if name.startswith("on") and "alert(" in value:
                self.problems.append(f"<{tag} {name}={value!r}>")
            if name in ("href", "src", "action", "formaction", "xlink:href") and \
                    value.strip().lower().startswith("javascript:"):
                self.problems.append(f"<{tag} {name}={value!r}>")
        if tag == "script":
            self._in_script = True
            self.scripts.append("")

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = False

    def handle_data(self, data):
        if self._in_script:
            self.scripts[-1] += data
            # Data written into a script raw would bring its own markup and code with it.
            for marker in ("<script", "<img", "<svg", "<b on", "alert('json')</"):
                if marker in data:
                    self.problems.append(f"raw {marker!r} in a script")
        else:
            self.text.append(data)


def hostile_pages(client) -> list[str]:
    urls = ["/", "/results", "/search?q=script", "/search?q=img", "/search?q=alert",
            "/sparql/ui", "/viz/overview", "/exports/"]
    for key in ("xss-title", "xss-img", "xss-json"):
        urls += [f"/paper/{key}", f"/viz/neighbourhood?node=paper/{key}&depth=2",
                 f"/id/paper/{key}"]
    for entity in client.get("/api/entities?limit=100").get_json()["entities"]:
        urls += [f"/entity/{entity['id']}", f"/viz/neighbourhood?node={entity['id']}"]
    for key in ("xss-title-1", "xss-img-1", "xss-json-1"):
        urls.append(f"/id/claim/{key}")
    return urls


def test_hostile_text_is_escaped_on_every_page(hostile_app) -> None:
    client = hostile_app.test_client()
    seen = ""
    for url in hostile_pages(client):
        response = client.get(url, headers={"Accept": "text/html"}, follow_redirects=True)
        assert response.status_code == 200, url
        if not response.mimetype.endswith("html"):
            continue
        body = response.get_data(as_text=True)
        # Raw, the markup would run wherever it landed: text, attribute or script (where a
        # "</script>" ends the element whatever the JSON around it).
        assert [h for h in HOSTILE if "<" in h and h in body] == [], url
        page = Markup()
        page.feed(body)
        assert page.problems == [], (url, page.problems)
        seen += "".join(page.text) + "".join(page.scripts)
    # Not vacuous: the hostile strings are on the pages, as text.
    for needle in ("<script>alert('title')</script>", "<img src=x onerror=alert('claim')>",
                   "</script><script>alert('json')</script>"):
        assert needle in seen.replace("\\u003c", "<").replace("\\u003e", ">"). \
            replace("\\u0027", "'").replace("\\/", "/"), needle


def test_viz_data_carries_labels_as_plain_text(hostile_app) -> None:
    """vis-network shows `title`/`label` as text: the data must hold the raw words, not HTML."""
    body = hostile_app.test_client().get(
        "/viz/neighbourhood?node=paper/xss-title").get_data(as_text=True)
    page = Markup()
    page.feed(body)
    data = "".join(page.scripts)
    assert "&lt;script&gt;" not in data  # not pre-escaped (it would show as entities)
    assert "<script>alert" not in data  # and not raw inside the script either
    assert "\\u003cscript\\u003ealert('title')" in data.replace("\\u0027", "'")


def test_json_answers_are_json_and_not_sniffed(hostile_app) -> None:
    client = hostile_app.test_client()
    for url in ("/api/papers", "/api/papers/xss-title", "/api/search?q=script"):
        response = client.get(url)
        assert response.mimetype == "application/json", url
        assert "<script>alert('title')</script>" in json.dumps(response.get_json(),
                                                                ensure_ascii=False)


# -- oversized requests --------------------------------------------------------------------------


def test_oversized_requests_get_413(hostile_app) -> None:
    client = hostile_app.test_client()
    big = "SELECT * WHERE { ?s ?p ?o } #" + "x" * 30_000
    for response in (client.get("/sparql", query_string={"query": big}),
                     client.post("/sparql", data={"query": big}),
                     client.post("/sparql", data=big.encode(),
                                 content_type="application/sparql-query"),
                     client.get("/api/search", query_string={"q": "x" * 30_000})):
        assert response.status_code == 413
        error_of(response)


def test_oversized_chunked_body_gets_413_not_a_cut_query(live) -> None:
    """No Content-Length to check up front: the body must still be refused, not truncated."""
    big = ("SELECT * WHERE { ?s ?p ?o } #" + "x" * 30_000).encode()
    connection = http.client.HTTPConnection(*live, timeout=30)
    try:
        connection.request("POST", "/sparql", body=iter([big[i:i + 4096]
                                                         for i in range(0, len(big), 4096)]),
                           headers={"Content-Type": "application/sparql-query",
                                    "Transfer-Encoding": "chunked"}, encode_chunked=True)
        response = connection.getresponse()
        response.read()
        assert response.status == 413, response.status
    finally:
        connection.close()


# -- header injection ----------------------------------------------------------------------------

INJECTIONS = ["%0d%0aSet-Cookie:%20evil=1", "%0aX-Evil:%201", "%0d%0a%0d%0a<html>evil",
              "\u560d\u560aSet-Cookie:evil=1"]


def test_crlf_in_parameters_never_reaches_a_header(live) -> None:
    for injection in INJECTIONS:
        quoted = injection if injection.startswith("%") else quote(injection)
        for path in (f"/id/paper/xss-title{quoted}", f"/id/method/x{quoted}",
                     f"/exports/graph.ttl{quoted}", f"/sparql?query=ASK{{}}{quoted}",
                     f"/paper/x{quoted}", f"/viz/neighbourhood?node=paper/xss-title{quoted}",
                     f"/api/search?q=a{quoted}", f"/search?q=a{quoted}", f"/sparql{quoted}"):
            status, headers, _ = raw_get(live, path, {"Accept": "text/html"})
            assert status < 500, (path, status)
            names = {name.lower() for name, _ in headers}
            assert "set-cookie" not in names and "x-evil" not in names, (path, headers)
            for name, value in headers:
                assert "\r" not in value and "\n" not in value, (path, name, value)
