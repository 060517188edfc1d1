"""The fixes of docs/security.md's defects 3-5: a chunked body over max_request_bytes is a 413,
not a cut query; an invalid graph IRI is a 400 naming its parameter; the spec lists the web
pages' error statuses."""

from __future__ import annotations

import http.client
import io
import json
from urllib.parse import quote

import pytest

from api.sparql import check_graph_iri

PROVENANCE = "https://w3id.org/paperkg/id/graph/provenance"
COUNT_ALL = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"
LIMIT = 300
CHUNKED = {"Transfer-Encoding": "chunked", "Content-Type": "application/sparql-query"}


def _padded(query: str, size: int) -> bytes:
    """`query` with a trailing comment that makes it exactly `size` bytes."""
    body = (query + " #").encode()
    return body + b"x" * (size - len(body))


def _post_chunked(client, body: bytes, url: str = "/sparql", **headers: str):
    # No Content-Length; the stream is marked terminated as servers do for the chunked
    # bodies they decode (werkzeug's and granian's both).
    return client.post(url, input_stream=io.BytesIO(body), headers={**CHUNKED, **headers},
                       environ_overrides={"wsgi.input_terminated": True})


def _count(response) -> str:
    assert response.status_code == 200, response.data
    return json.loads(response.data)["results"]["bindings"][0]["n"]["value"]


# -- 3. chunked bodies -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def small(make_app):
    return make_app(max_request_bytes=LIMIT).test_client()


def test_a_chunked_body_at_the_limit_runs_whole(small, client):
    expected = _count(client.get("/sparql", query_string={"query": COUNT_ALL}))
    response = _post_chunked(small, _padded(COUNT_ALL, LIMIT))
    assert _count(response) == expected


def test_a_chunked_body_one_byte_over_the_limit_is_413(small):
    response = _post_chunked(small, _padded(COUNT_ALL, LIMIT + 1))
    assert response.status_code == 413
    error = json.loads(response.data)["error"]
    assert error["status"] == 413
    assert "max_request_bytes" in error["message"] and str(LIMIT) in error["message"]


def test_a_chunked_body_counts_with_the_query_string(small):
    url = f"/sparql?default-graph-uri={quote(PROVENANCE, safe='')}"
    room = LIMIT - len(url.split("?", 1)[1])
    assert _count(_post_chunked(small, _padded(COUNT_ALL, room), url)) == "13"
    assert _post_chunked(small, _padded(COUNT_ALL, room + 1), url).status_code == 413


def test_a_chunked_form_post_is_read_whole(small):
    body = f"query={quote(COUNT_ALL, safe='')}&default-graph-uri={quote(PROVENANCE, safe='')}"
    response = _post_chunked(small, body.encode(),
                             **{"Content-Type": "application/x-www-form-urlencoded"})
    assert _count(response) == "13"
    over = _post_chunked(small, (body + "&" + "x" * LIMIT).encode(),
                         **{"Content-Type": "application/x-www-form-urlencoded"})
    assert over.status_code == 413


def test_a_chunked_body_on_the_wire(make_app):
    """Through a real server: chunks decoded by werkzeug, refused with the JSON error shape."""
    from tests.api.conftest import LiveServer

    with LiveServer(make_app(max_request_bytes=LIMIT)) as server:
        for size, status in ((LIMIT, 200), (LIMIT * 20, 413)):
            body = _padded(COUNT_ALL, size)
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
            try:
                connection.request("POST", "/sparql", headers=CHUNKED, encode_chunked=True,
                                   body=iter([body[i:i + 100] for i in range(0, size, 100)]))
                response = connection.getresponse()
                data = json.loads(response.read())
            finally:
                connection.close()
            assert response.status == status, data
            if status == 413:
                assert data["error"]["status"] == 413
            else:
                assert data["results"]["bindings"][0]["n"]["value"].isdigit()


# -- 4. graph IRIs -----------------------------------------------------------------------------

BAD_IRIS = ["", "not an iri", "relative/path", "http://x/a b", "http://x/<a>", 'http://x/"',
            "http://x/{a}", "http://x/a|b", "http://x/a\\b", "http://x/a^b", "http://x/a`b",
            "http://x/\u009d", "http://x/\x00", "http://x/\x7f", "http://x/%zz",
            "http://[bad/", "1http://x/"]


@pytest.mark.parametrize("value", BAD_IRIS)
@pytest.mark.parametrize("param", ["default-graph-uri", "named-graph-uri"])
def test_an_invalid_graph_iri_is_a_400_naming_it(client, param: str, value: str):
    response = client.get("/sparql", query_string={"query": "ASK { ?s ?p ?o }", param: value})
    assert response.status_code == 400
    message = json.loads(response.data)["error"]["message"]
    assert f"'{param}'" in message and "absolute IRI" in message
    assert "\x9d" not in message and "\x00" not in message


@pytest.mark.parametrize("param", ["default-graph-uri", "named-graph-uri"])
def test_an_invalid_graph_iri_in_a_post_is_a_400(client, param: str):
    form = client.post("/sparql", data={"query": COUNT_ALL, param: "no scheme"})
    assert form.status_code == 400
    assert param in json.loads(form.data)["error"]["message"]
    direct = client.post(f"/sparql?{param}=a%20b", data=COUNT_ALL,
                         content_type="application/sparql-query")
    assert direct.status_code == 400
    assert param in json.loads(direct.data)["error"]["message"]


def test_one_bad_graph_iri_among_good_ones_is_a_400(client):
    response = client.get("/sparql", query_string=[("query", COUNT_ALL),
                                                   ("default-graph-uri", PROVENANCE),
                                                   ("default-graph-uri", "x y")])
    assert response.status_code == 400


@pytest.mark.parametrize("value", [PROVENANCE, "urn:x-none", "http://example.org/g?a=1#f",
                                   "http://example.org/caf\u00e9", "tag:a@b.c,2024:g"])
def test_valid_graph_iris_pass(value: str):
    assert check_graph_iri("default-graph-uri", value) == value


def test_a_long_bad_iri_is_cut_in_the_message(client):
    response = client.get("/sparql", query_string={"query": COUNT_ALL,
                                                   "named-graph-uri": "x" * 5000})
    assert response.status_code == 400
    assert len(json.loads(response.data)["error"]["message"]) < 400


# -- 5. the pages' errors in the spec ----------------------------------------------------------


def _page_operations(spec: dict) -> list[tuple[str, dict]]:
    return [(path, operation) for path, item in spec["paths"].items()
            for operation in item.values() if operation.get("tags") == ["pages"]]


def test_every_page_lists_its_html_errors(client):
    pages = _page_operations(client.get("/openapi.json").get_json())
    paths = {path for path, _ in pages}
    assert {"/paper/{key}", "/entity/{type_}/{slug}", "/viz/neighbourhood"} <= paths
    for path, operation in pages:
        responses = operation["responses"]
        assert set(responses) == {"200", "400", "404", "413", "429"}, path
        for status in ("400", "404", "413", "429"):
            assert list(responses[status]["content"]) == ["text/html"], (path, status)


@pytest.mark.parametrize("url,status", [("/paper/no-such-paper", 404),
                                        ("/entity/nokind/x", 404),
                                        ("/viz/neighbourhood", 400)])
def test_page_errors_are_html_as_the_spec_says(client, url: str, status: int):
    response = client.get(url)
    assert response.status_code == status
    assert response.mimetype == "text/html"
    spec = client.get("/openapi.json").get_json()
    path = {"/paper/no-such-paper": "/paper/{key}", "/entity/nokind/x": "/entity/{type_}/{slug}",
            "/viz/neighbourhood": "/viz/neighbourhood"}[url]
    assert "text/html" in spec["paths"][path]["get"]["responses"][str(status)]["content"]


def test_page_429_is_html(make_app):
    client = make_app(rate_limit=60, rate_limit_burst=1).test_client()
    assert client.get("/paper/no-such-paper").status_code == 404
    response = client.get("/paper/no-such-paper")
    assert response.status_code == 429
    assert response.mimetype == "text/html"
