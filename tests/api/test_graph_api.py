"""Every graph API route against the fixture graph, with exact values."""

from __future__ import annotations

import json

import pytest
import rdflib
from conftest import BASE
from rdflib.compare import isomorphic


def _get(client, url: str, status: int = 200):
    response = client.get(url)
    assert response.status_code == status, response.data
    assert response.mimetype == "application/json"
    return json.loads(response.data)


def _node(type_: str, slug: str, label: str, support: int) -> dict:
    return {"id": f"{type_}/{slug}", "iri": f"{BASE}{type_}/{slug}", "type": type_,
            "label": label, "support": support}


def _error(client, url: str, status: int) -> str:
    document = _get(client, url, status)
    assert document["error"]["status"] == status
    return document["error"]["message"]


# -- papers --------------------------------------------------------------------------------------


def test_papers_first_page(client):
    document = _get(client, "/api/papers?per_page=2")
    assert document["total"] == 12
    assert document["pages"] == 6
    assert document["page"] == 1
    assert document["papers"] == [
        {**_node("paper", "p01", "Attention Is Enough for Image Classification", 6), "key": "p01"},
        {**_node("paper", "p02", "Residual Learning Revisited", 5), "key": "p02"},
    ]


def test_papers_last_page(client):
    document = _get(client, "/api/papers?per_page=5&page=3")
    assert [paper["key"] for paper in document["papers"]] == ["p11", "p12"]
    assert document["papers"][0]["support"] == 0


def test_papers_default_page_holds_all_twelve(client):
    assert len(_get(client, "/api/papers")["papers"]) == 12


@pytest.mark.parametrize(("query", "name"), [
    ("page=0", "page"), ("page=x", "page"), ("page=4&per_page=5", "page"),
    ("per_page=0", "per_page"), ("per_page=1000", "per_page")])
def test_papers_bad_paging(client, query, name):
    assert f"'{name}'" in _error(client, f"/api/papers?{query}", 400)


def test_paper_with_links_and_claims(client):
    document = _get(client, "/api/papers/p01")
    assert document["title"] == "Attention Is Enough for Image Classification"
    assert document["abstract"].startswith("We apply a Transformer to ImageNet.")
    assert document["identifier"] == "p01"
    assert document["links"] == {
        "proposes": [_node("model", "vit-s", "ViT-S", 1)],
        "usesMethod": [_node("method", "transformer", "Transformer", 6)],
        "usesDataset": [_node("dataset", "imagenet", "ImageNet", 4)],
        "addressesTask": [_node("task", "image-classification", "Image Classification", 4)],
        "reportsMetric": [_node("metric", "accuracy", "Accuracy", 5)],
        "inDomain": [_node("domain", "computer-vision", "Computer Vision", 4)],
    }
    assert document["claims"] == [{
        "id": "claim/p01-1", "iri": f"{BASE}claim/p01-1", "kind": "Empirical",
        "text": "Our ViT-S reaches 81.2% top-1 accuracy on ImageNet.",
        "about": [_node("dataset", "imagenet", "ImageNet", 4),
                  _node("model", "vit-s", "ViT-S", 1)],
        "results": [{
            "id": "result/p01-1-1", "iri": f"{BASE}result/p01-1-1",
            "metric": _node("metric", "accuracy", "Accuracy", 5), "value": 81.2, "unit": "%",
            "dataset": _node("dataset", "imagenet", "ImageNet", 4),
            "model": _node("model", "vit-s", "ViT-S", 1), "baseline": None, "text": "81.2%",
        }],
    }]


def test_paper_with_two_methods(client):
    document = _get(client, "/api/papers/p04")
    assert [n["id"] for n in document["links"]["usesMethod"]] == [
        "method/graph-neural-network", "method/transformer"]
    assert document["claims"] == []


def test_paper_without_links(client):
    document = _get(client, "/api/papers/p11")
    assert document["links"] == {}
    assert document["title"] == "Unlinked Notes"


def test_unknown_paper_is_404(client):
    assert "p99" in _error(client, "/api/papers/p99", 404)


def test_an_entity_is_not_a_paper(client):
    _error(client, "/api/papers/transformer", 404)


# -- entities ------------------------------------------------------------------------------------


def test_entities_of_a_type_by_support(client):
    document = _get(client, "/api/entities?type=method")
    assert document["total"] == 4
    assert [(e["id"], e["support"], e["aliases"]) for e in document["entities"]] == [
        ("method/transformer", 6, ["Transformers"]),
        ("method/graph-neural-network", 3, ["GNN"]),
        ("method/contrastive-learning", 2, []),
        ("method/simplified-graph-convolution", 1, ["SGC"]),
    ]


def test_entities_search_in_aliases(client):
    document = _get(client, "/api/entities?q=stanford")
    assert [e["id"] for e in document["entities"]] == ["dataset/squad"]


def test_entities_search_with_nul_finds_nothing(client):
    for q in ("trans%00former", "%00", "a%00"):
        document = _get(client, f"/api/entities?q={q}")
        assert (document["total"], document["entities"]) == (0, []), q
        assert _get(client, f"/api/search?q={q}")["total"] == 0, q


def test_entities_limit(client):
    document = _get(client, "/api/entities?limit=3")
    assert document["total"] == 18
    assert [e["id"] for e in document["entities"]] == [
        "method/transformer", "metric/accuracy", "domain/computer-vision"]


def test_domains_count_their_papers(client):
    document = _get(client, "/api/entities?type=domain")
    assert [(e["label"], e["support"]) for e in document["entities"]] == [
        ("Computer Vision", 4), ("Graph Learning", 3), ("Natural Language Processing", 3)]


def test_entities_bad_type(client):
    assert "'type'" in _error(client, "/api/entities?type=paper", 400)
    _error(client, "/api/entities?limit=-1", 400)


def test_entity_detail(client):
    document = _get(client, "/api/entities/method/graph-neural-network")
    assert {k: document[k] for k in ("id", "label", "support", "aliases", "broader")} == {
        "id": "method/graph-neural-network", "label": "Graph Neural Network", "support": 3,
        "aliases": ["GNN"], "broader": []}
    assert [(p["id"], p["relations"]) for p in document["papers"]] == [
        ("paper/p04", ["usesMethod"]), ("paper/p05", ["usesMethod"]),
        ("paper/p06", ["usesMethod"])]
    assert [(e["id"], e["papers"]) for e in document["cooccurring"]] == [
        ("domain/graph-learning", 3), ("dataset/cora", 2), ("task/node-classification", 2),
        ("method/contrastive-learning", 1), ("method/simplified-graph-convolution", 1),
        ("method/transformer", 1), ("metric/accuracy", 1)]


def test_entity_proposed_by_a_paper(client):
    document = _get(client, "/api/entities/method/simplified-graph-convolution")
    assert [(p["id"], p["relations"]) for p in document["papers"]] == [
        ("paper/p05", ["proposes"])]


@pytest.mark.parametrize("url", ["/api/entities/method/nope", "/api/entities/paper/p01",
                                 "/api/entities/widget/x", "/api/entities/method/a%3Eb"])
def test_unknown_entity_is_404(client, url):
    _error(client, url, 404)


# -- search --------------------------------------------------------------------------------------


def test_search_ranks_exact_then_prefix_then_words(client):
    document = _get(client, "/api/search?q=bert")
    assert [(r["id"], r["matched"], r["match"]) for r in document["results"]] == [
        ("model/bert", "label", "exact"),
        ("paper/p08", "title", "word"),
        ("paper/p07", "title", "word"),
    ]
    assert document["total"] == 3


def test_search_finds_aliases(client):
    document = _get(client, "/api/search?q=gnn")
    assert [(r["id"], r["matched"], r["text"]) for r in document["results"]] == [
        ("method/graph-neural-network", "alias", "GNN")]


def test_search_type_filter_and_limit(client):
    document = _get(client, "/api/search?q=classification&types=paper")
    assert [r["id"] for r in document["results"]] == ["paper/p01"]
    document = _get(client, "/api/search?q=classification&limit=1")
    assert document["total"] == 3
    assert [r["id"] for r in document["results"]] == ["task/image-classification"]


def test_search_needs_q(client):
    assert "'q'" in _error(client, "/api/search", 400)
    assert "'q'" in _error(client, "/api/search?q=%20", 400)


# -- neighbourhood -------------------------------------------------------------------------------


def test_neighbourhood_of_an_entity(client):
    document = _get(client, "/api/neighbourhood?node=dataset/cora")
    assert document["nodes"] == [
        _node("dataset", "cora", "Cora", 2),
        _node("paper", "p04", "Graph Attention over Citation Networks", 6),
        _node("paper", "p05", "Simple Graph Convolutions", 5),
    ]
    assert document["edges"] == [
        {"source": "paper/p04", "target": "dataset/cora", "relation": "usesDataset"},
        {"source": "paper/p05", "target": "dataset/cora", "relation": "usesDataset"},
    ]
    assert document["truncated"] is False


def test_neighbourhood_by_iri_with_type_filter(client):
    document = _get(client, f"/api/neighbourhood?node={BASE}paper/p05&types=method,dataset")
    assert [n["id"] for n in document["nodes"]] == [
        "paper/p05", "method/graph-neural-network", "dataset/cora",
        "method/simplified-graph-convolution"]
    assert document["edges"] == [
        {"source": "paper/p05", "target": "dataset/cora", "relation": "usesDataset"},
        {"source": "paper/p05", "target": "method/graph-neural-network",
         "relation": "usesMethod"},
        {"source": "paper/p05", "target": "method/simplified-graph-convolution",
         "relation": "proposes"},
    ]


def test_neighbourhood_depth_two_is_truncated_at_the_limit(client):
    document = _get(client, "/api/neighbourhood?node=method/contrastive-learning&depth=2&limit=4")
    assert [n["id"] for n in document["nodes"]] == [
        "method/contrastive-learning", "paper/p03", "paper/p06", "metric/accuracy"]
    assert document["truncated"] is True
    assert {"source": "paper/p03", "target": "metric/accuracy",
            "relation": "reportsMetric"} in document["edges"]


def test_neighbourhood_depth_two_whole(client):
    document = _get(client, "/api/neighbourhood?node=task/question-answering&depth=2")
    assert [n["id"] for n in document["nodes"]] == [
        "task/question-answering", "paper/p07", "paper/p08", "method/transformer",
        "domain/natural-language-processing", "model/bert", "dataset/squad", "metric/f1"]
    assert len(document["edges"]) == 12
    assert document["truncated"] is False


def test_neighbourhood_of_an_isolated_paper(client):
    document = _get(client, "/api/neighbourhood?node=paper/p11&depth=3")
    assert [n["id"] for n in document["nodes"]] == ["paper/p11"]
    assert document["edges"] == []


@pytest.mark.parametrize(("query", "name"), [
    ("", "node"), ("node=paper/p01&depth=0", "depth"), ("node=paper/p01&depth=4", "depth"),
    ("node=paper/p01&types=method,widget", "types"), ("node=paper/p01&limit=0", "limit"),
    ("node=paper/p01&limit=100000", "limit")])
def test_neighbourhood_bad_parameters(client, query, name):
    assert f"'{name}'" in _error(client, f"/api/neighbourhood?{query}", 400)


@pytest.mark.parametrize("node", ["paper/p99", "method/nope", f"{BASE}paper/p99",
                                  "http://example.org/x"])
def test_neighbourhood_unknown_node(client, node):
    assert "'node'" in _error(client, f"/api/neighbourhood?node={node}", 404)


# -- paths and similar papers --------------------------------------------------------------------


def test_path_between_papers(client):
    document = _get(client, "/api/path?from=paper/p07&to=paper/p09")
    assert document["length"] == 2
    assert document["paths"] == [
        ["paper/p07", "domain/natural-language-processing", "paper/p09"],
        ["paper/p07", "method/transformer", "paper/p09"],
        ["paper/p07", "model/bert", "paper/p09"],
    ]
    assert [n["id"] for n in document["nodes"]] == [
        "domain/natural-language-processing", "method/transformer", "model/bert",
        "paper/p07", "paper/p09"]


def test_path_max(client):
    document = _get(client, "/api/path?from=dataset/squad&to=dataset/cora&max=1")
    assert document["paths"] == [["dataset/squad", "paper/p07", "method/transformer",
                                  "paper/p04", "dataset/cora"]]
    assert document["length"] == 4


def test_no_path_to_an_isolated_paper(client):
    document = _get(client, "/api/path?from=paper/p01&to=paper/p11")
    assert document["paths"] == []
    assert document["length"] is None


def test_path_bad_and_unknown(client):
    assert "'to'" in _error(client, "/api/path?from=paper/p01", 400)
    assert "'from'" in _error(client, "/api/path?from=paper/p00&to=paper/p01", 404)


def test_similar_papers_weigh_rare_entities_more(client):
    document = _get(client, "/api/similar?paper=p07&k=3")
    assert document["paper"]["id"] == "paper/p07"
    assert [(s["id"], s["score"], s["shared"]) for s in document["similar"]] == [
        ("paper/p08", 8.841014, ["dataset/squad", "domain/natural-language-processing",
                                 "method/transformer", "metric/f1", "model/bert",
                                 "task/question-answering"]),
        ("paper/p09", 3.465736, ["domain/natural-language-processing", "method/transformer",
                                 "model/bert"]),
        ("paper/p01", 0.693147, ["method/transformer"]),
    ]


def test_similar_bad_parameters(client):
    assert "'paper'" in _error(client, "/api/similar?paper=method/transformer", 400)
    assert "'paper'" in _error(client, "/api/similar?paper=p99", 404)
    assert "'k'" in _error(client, "/api/similar?paper=p01&k=0", 400)


# -- linked-data resources -----------------------------------------------------------------------


def _expected_p10() -> rdflib.Graph:
    p10 = rdflib.URIRef(f"{BASE}paper/p10")
    accuracy = rdflib.URIRef(f"{BASE}metric/accuracy")
    pkg = rdflib.Namespace("https://w3id.org/paperkg/ns#")
    dcterms = rdflib.Namespace("http://purl.org/dc/terms/")
    title = rdflib.Literal('<script>alert(1)</script> & "Quoted" Hazards')
    graph = rdflib.Graph()
    for triple in [
        (p10, rdflib.RDF.type, pkg.Paper),
        (p10, rdflib.RDF.type, rdflib.URIRef("https://schema.org/ScholarlyArticle")),
        (p10, dcterms.identifier, rdflib.Literal("p10")),
        (p10, dcterms.title, title),
        (p10, rdflib.RDFS.label, title),
        (p10, pkg.reportsMetric, accuracy),
        (accuracy, rdflib.RDFS.label, rdflib.Literal("Accuracy")),
    ]:
        graph.add(triple)
    return graph


@pytest.mark.parametrize(("accept", "rdflib_format"), [
    ("text/turtle", "turtle"), ("application/ld+json", "json-ld"),
    ("application/n-triples", "nt"), ("application/rdf+xml", "xml"), (None, "turtle")])
def test_resource_description(client, accept, rdflib_format):
    response = client.get("/id/paper/p10", headers={"Accept": accept} if accept else {})
    assert response.status_code == 200
    assert response.mimetype == (accept or "text/turtle")
    graph = rdflib.Graph().parse(data=response.data, format=rdflib_format)
    assert isomorphic(graph, _expected_p10())


def test_resource_for_browsers(app, client):
    response = client.get("/id/paper/p10", headers={"Accept": "text/html,*/*;q=0.8"})
    if "pages.paper" in app.view_functions:
        assert response.status_code == 303
        assert response.headers["Location"] == "/paper/p10"
    else:
        assert response.mimetype == "text/html"
        assert b"<script>" not in response.data


def test_entity_resource_for_browsers(app, client):
    response = client.get("/id/method/transformer", headers={"Accept": "text/html"})
    if "pages.entity" in app.view_functions:
        assert response.status_code == 303
        assert response.headers["Location"] == "/entity/method/transformer"


def test_resource_html_of_a_result_escapes_text(client):
    response = client.get("/id/result/p01-1-1", headers={"Accept": "text/html"})
    assert response.status_code == 200
    page = response.data.decode()
    assert '<a href="/id/metric/accuracy">' in page
    assert "81.2%" in page


def test_resource_html_never_has_raw_markup(app, store_location, exports_dir, make_app):
    # Without the pages blueprint taking over, the minimal page escapes the title.
    from api.graph_api import resources as graph_api

    with app.test_request_context("/id/paper/p10"):
        iri = f"{BASE}paper/p10"
        page = graph_api.html_resource(iri, graph_api.description(iri)).get_data(as_text=True)
    assert "<script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Quoted&quot; Hazards" in page


def test_unknown_resource(client):
    assert json.loads(client.get("/id/paper/p99").data)["error"]["status"] == 404
    assert client.get("/id/widget/x").status_code == 404
    html_404 = client.get("/id/paper/p99", headers={"Accept": "text/html"})
    assert html_404.status_code == 404
    assert html_404.mimetype == "text/html"


def test_html_error_page_escapes_the_message(client):
    response = client.get("/id/paper/%3Cb%3Ex", headers={"Accept": "text/html"})
    assert response.status_code == 404
    assert response.get_data(as_text=True) == (
        "<!doctype html><meta charset=utf-8><title>404</title><h1>404</h1>"
        "<p>no paper &#x27;&lt;b&gt;x&#x27;</p>")


def test_resource_406(client):
    assert client.get("/id/paper/p10", headers={"Accept": "image/png"}).status_code == 406


# -- exports and health --------------------------------------------------------------------------


def test_export_file(client):
    response = client.get("/exports/graph.ttl")
    assert response.status_code == 200
    assert response.mimetype == "text/turtle"
    assert response.data == b"<urn:a> <urn:b> <urn:c> .\n"
    response.close()
    nested = client.get("/exports/sub/inner.nt")
    assert nested.mimetype == "application/n-triples"
    nested.close()


def test_export_listing(client):
    document = _get(client, "/exports/")
    assert [(f["name"], f["url"]) for f in document["files"]] == [
        ("graph.ttl", "/exports/graph.ttl"), ("report.json", "/exports/report.json"),
        ("sub/inner.nt", "/exports/sub/inner.nt")]


@pytest.mark.parametrize("path", [
    "/exports/../secret.txt", "/exports/%2e%2e/secret.txt", "/exports/..%2fsecret.txt",
    "/exports/%2E%2E%2Fsecret.txt", "/exports/sub/../../secret.txt",
    "/exports/sub/%2e%2e/%2e%2e/secret.txt", "/exports/..%5csecret.txt",
    "/exports//etc/passwd", "/exports/%2fetc%2fpasswd", "/exports/.hidden",
    "/exports/nothing.ttl"])
def test_export_traversal_is_404(client, path):
    # Doubled slashes are first redirected to the merged path, inside /exports/.
    response = client.get(path, follow_redirects=True)
    assert response.status_code == 404
    assert response.mimetype == "application/json"
    assert json.loads(response.data)["error"]["status"] == 404


def test_healthz(client, store_location):
    document = _get(client, "/healthz")
    assert document["status"] == "ok"
    assert document["store"] == store_location
    assert document["generation"]


# -- the two ways of answering: SPARQL on the store, and the index built with it ----------------


def _both_graphs(location: str):
    from graph.network import search_index
    from graph.network.index_graph import IndexGraph
    from graph.network.store_graph import StoreGraph
    from graph.store import EmbeddedStore

    store = EmbeddedStore(location, read_only=True)
    generation = store.generation()
    index = search_index.open_index(store, BASE, generation)
    return store, StoreGraph(store, BASE, generation), IndexGraph(store, index, BASE, generation)


def test_index_and_sparql_answer_every_graph_question_alike(store_location):
    store, by_sparql, by_index = _both_graphs(store_location)
    try:
        rows = store.query(f"SELECT ?n WHERE {{ ?n a ?c . FILTER(STRSTARTS(STR(?n), '{BASE}') "
                           "&& ?c IN (<https://w3id.org/paperkg/ns#Paper>, "
                           "<https://w3id.org/paperkg/ns#Method>, "
                           "<https://w3id.org/paperkg/ns#Dataset>, "
                           "<https://w3id.org/paperkg/ns#Domain>)) }")
        nodes = sorted({row["n"].value for row in rows})
        assert len(nodes) == 12 + 4 + 3 + 3
        assert by_index.describe(nodes) == by_sparql.describe(nodes)
        assert by_index.aliases(nodes) == by_sparql.aliases(nodes)
        for node in nodes:
            for depth, limit in ((1, 100), (2, 5), (3, 100)):
                assert (by_index.neighbourhood(node, depth=depth, limit=limit)
                        == by_sparql.neighbourhood(node, depth=depth, limit=limit)), node
            assert (by_index.shortest_paths(node, nodes[0], max_paths=10)
                    == by_sparql.shortest_paths(node, nodes[0], max_paths=10)), node
            for types in (["paper", "method"], ["dataset", "paper"]):
                assert (by_index.neighbourhood(node, depth=2, types=types, limit=4)
                        == by_sparql.neighbourhood(node, depth=2, types=types, limit=4)), node
            if "/paper/" in node:
                assert (by_index.similar_papers(node, k=5)
                        == by_sparql.similar_papers(node, k=5)), node
            else:
                assert by_index.papers_of(node) == by_sparql.papers_of(node), node
                assert by_index.cooccurring(node) == by_sparql.cooccurring(node), node
        assert by_index.paper_count() == by_sparql.paper_count() == 12
    finally:
        store.close()


def test_a_hop_beyond_the_cap_keeps_the_best_ranked_and_says_so(store_location, monkeypatch):
    from graph.network import store_graph

    store, by_sparql, by_index = _both_graphs(store_location)
    try:
        monkeypatch.setattr(store_graph, "HOP_CAP", 2)
        nodes, _, truncated = by_index.neighbourhood(f"{BASE}method/transformer", limit=100)
        # Transformer's six papers, capped at two: the two with most entities, then by id.
        assert truncated is True
        assert [n["id"] for n in nodes] == ["method/transformer", "paper/p01", "paper/p04"]
    finally:
        store.close()


def test_search_ranks_papers_of_one_match_kind_by_bm25(client):
    document = _get(client, "/api/search?q=con")
    # Entities by support; papers of one match kind by BM25 of the matched title: p06 (support
    # 3, the shorter title) before p03 (support 6).
    assert [(r["id"], r["match"], r["support"]) for r in document["results"]] == [
        ("method/contrastive-learning", "prefix", 2), ("paper/p06", "prefix", 3),
        ("paper/p03", "prefix", 6), ("method/simplified-graph-convolution", "word", 1),
        ("paper/p05", "word", 5)]
    assert document["total"] == 5


def test_the_answers_follow_the_store_from_one_generation_to_the_next(tmp_path, exports_dir):
    import pyoxigraph
    from conftest import FIXTURE

    from api import create_app
    from graph.build.incremental import remove_paper
    from graph.store import EmbeddedStore

    location = str(tmp_path / "store")
    writer = EmbeddedStore(location)
    writer.replace_all(pyoxigraph.parse(path=str(FIXTURE), format=pyoxigraph.RdfFormat.TRIG))
    app = create_app({"TESTING": True, "store": location, "rate_limit": 0,
                      "exports_dir": str(exports_dir)})
    client = app.test_client()
    try:
        assert [r["id"] for r in _get(client, "/api/search?q=unlinked")["results"]] == [
            "paper/p11"]
        assert _get(client, "/api/papers")["total"] == 12
        first = sorted(p.name for p in (tmp_path / "store.search").glob("*.sqlite"))
        assert len(first) == 1
        assert remove_paper(writer, "p11", base=BASE)
        assert _get(client, "/api/search?q=unlinked")["results"] == []
        assert _get(client, "/api/papers")["total"] == 11
        _error(client, "/api/neighbourhood?node=paper/p11", 404)
        # One index file per generation, the one before kept for readers still on it.
        second = sorted(p.name for p in (tmp_path / "store.search").glob("*.sqlite"))
        assert len(second) == 2 and first[0] in second
    finally:
        app.extensions["paperkg"].close()
        writer.close()


def test_similar_papers_stop_early_and_still_equal_scoring_every_paper(store_location):
    from graph import network

    store, by_sparql, by_index = _both_graphs(store_location)
    try:
        whole = network.build(store, BASE)  # every paper scored, in memory
        for key in sorted(n for n in whole if n.startswith("paper/")):
            for k in (1, 2, 4, 12):
                expected = network.similar_papers(whole, key, k=k)
                assert by_index.similar_papers(BASE + key, k=k) == expected, (key, k)
        assert by_sparql.similar_papers(BASE + "paper/p07", k=2) == network.similar_papers(
            whole, "paper/p07", k=2)
    finally:
        store.close()
