"""Pages and graph views through Flask's test client: content, escaping, caps, errors."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

from api.pages import Span, highlight
from graph import viz

from .web_fixture import HOSTILE_KEY, IMG, SCRIPT

HOSTILE_METHOD = "method/script-alert-1-script-net-db0af9b3"
HOSTILE_DATASET = "dataset/img-src-x-onerror-alert-1-set-da8c564b"
PAGES = [
    "/",
    "/search?q=net",
    f"/search?q={SCRIPT}",
    "/paper/p01",
    f"/paper/{HOSTILE_KEY}",
    "/entity/method/sparse-routing-attention",
    f"/entity/{HOSTILE_METHOD}",
    f"/entity/{HOSTILE_DATASET}",
    "/entity/domain/computer-vision",
    "/entity/claim/p01-1",
    f"/entity/claim/{HOSTILE_KEY}-2",
    "/results",
    "/sparql/ui",
    "/viz/neighbourhood?node=paper/p01",
    f"/viz/neighbourhood?node=paper/{HOSTILE_KEY}&depth=2",
    "/viz/overview",
]


def graph_data(html: str) -> dict[str, Any]:
    match = re.search(r'<script type="application/json" id="graph-data">(.*?)</script>', html,
                      re.S)
    assert match, "no graph data on the page"
    return json.loads(match.group(1))


class Balance(HTMLParser):
    """Checks that every opened element (but void ones) is closed in order."""

    VOID = {"meta", "link", "input", "br", "img", "hr", "source", "wbr"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack[-1] == tag, (tag, self.stack)
        self.stack.pop()


# -- highlight --------------------------------------------------------------------------------


def test_highlight_escapes_every_text_segment() -> None:
    html = highlight('a <b>&"x"', [Span(2, 5, "method", 'M: <b> "q"', "method/b")])
    assert str(html) == (
        'a <mark class="m m-method" data-type="method" data-ref="method/b" '
        'title="M: &lt;b&gt; &#34;q&#34;">&lt;b&gt;</mark>&amp;&#34;x&#34;'
    )


def test_highlight_nests_contained_spans_longest_outside() -> None:
    html = str(highlight("abcdefgh", [Span(2, 4, "task", "t"), Span(0, 8, "claim", "c")]))
    assert re.sub(r"<mark[^>]*m-(\w+)[^>]*>", r"[\1:", html).replace("</mark>", "]") == (
        "[claim:ab[task:cd]efgh]"
    )


def test_highlight_splits_crossing_spans_into_well_formed_html() -> None:
    html = str(highlight("0123456789", [Span(0, 6, "method", "m"), Span(3, 9, "dataset", "d")]))
    assert re.sub(r"<mark[^>]*m-(\w+)[^>]*>", r"[\1:", html).replace("</mark>", "]") == (
        "[method:012[dataset:345]][dataset:678]9"
    )
    Balance().feed(html)


def test_highlight_leaves_out_spans_outside_the_text() -> None:
    html = str(highlight("abc", [Span(2, 9, "method", "m"), Span(1, 1, "task", "t")]))
    assert html == "abc"


# -- pages --------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", PAGES)
def test_page_is_served_and_escapes_the_hostile_strings(client: Any, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    assert "<script>alert" not in html
    assert "<img" not in html
    assert "onerror=alert(1)>" not in html
    Balance().feed(re.sub(r"<script.*?</script>|<style.*?</style>", "", html, flags=re.S))


def test_pages_load_nothing_from_outside(client: Any) -> None:
    for path in PAGES:
        html = client.get(path).get_data(as_text=True)
        for attr in re.findall(r'<(?:script|link|img|iframe)\b[^>]*?(?:src|href)="([^"]*)"',
                               html):
            assert attr.startswith(("/static/", "/viz/", "data:")), (path, attr)
        assert "cdn" not in html.lower(), path


def test_home_shows_counts_and_top_entities(client: Any) -> None:
    html = client.get("/").get_data(as_text=True)
    counts = dict(re.findall(r'<span class="n" data-type="(\w+)">(\d+)</span>', html))
    assert counts["paper"] == "15"
    assert counts["result"] == "13"
    assert counts["domain"] == "6"
    top = html[html.index('id="top-method"'):html.index('id="top-dataset"')]
    assert re.findall(r'href="/entity/method/([^"]+)"', top)[:2] == [
        "sparse-routing-attention", "contrastive-pretraining"]


def test_paper_page_marks_each_provenance_span(client: Any) -> None:
    html = client.get("/paper/p01").get_data(as_text=True)
    abstract = html[html.index('id="abstract"'):html.index("</p>", html.index('id="abstract"'))]
    refs = re.findall(r'data-ref="([^"]+)"', abstract)
    assert refs == [
        "method/sparse-routing-attention", "domain/natural-language-processing",
        "task/language-modeling", "claim/p01-1", "dataset/wikitext-103",
        "metric/perplexity", "result/p01-1-1", "model/transformer-xl",
    ]
    assert '<mark class="m m-result" data-type="result" data-ref="result/p01-1-1"' in abstract
    assert ">17.2</mark>" in abstract
    text = re.sub(r"<[^>]+>", "", abstract.split(">", 1)[1])
    assert text.startswith("We propose Sparse Routing Attention (SRA), a method")


def test_paper_page_lists_claims_with_results(client: Any) -> None:
    html = client.get("/paper/p06").get_data(as_text=True)
    claims = html[html.index('id="claims"'):]
    assert "ViT-B/16 trails ResNet-50 on CIFAR-10 by 2.3 points of accuracy." in claims
    assert re.search(r'<span class="value">2.3</span> <span class="unit">points</span>'
                     r' <a class="node t-metric" href="/entity/metric/accuracy">accuracy</a>'
                     r' on <a class="node t-dataset" href="/entity/dataset/cifar-10">CIFAR-10</a>'
                     r' vs. <a class="node t-model" href="/entity/model/resnet-50">ResNet-50</a>',
                     claims)


def test_entity_page_lists_papers_aliases_and_cooccurring(client: Any) -> None:
    html = client.get("/entity/method/low-rank-adaptation").get_data(as_text=True)
    assert '<span class="alias">LoRA</span>' in html
    assert '<strong id="support">2</strong>' in html
    papers = html[html.index('id="papers"'):html.index('id="cooccurring"')]
    assert sorted(re.findall(r'href="/paper/(\w+)"', papers)) == ["p03", "p10"]
    cooc = html[html.index('id="cooccurring"'):]
    assert 'href="/entity/model/gpt-2">GPT-2</a> <span class="muted">×1</span>' in cooc


def test_results_page_has_every_result(client: Any) -> None:
    html = client.get("/results").get_data(as_text=True)
    table = html[html.index('id="results-table"'):]
    assert len(re.findall(r'<td class="num" data-value=', table)) == 13
    # Cora's accuracy: 83.1 % and "1.8 points" better are two boards, not one ranking.
    assert re.findall(r'data-dataset="Cora" data-metric="accuracy" data-unit="([^"]*)"',
                      html) == ["%", "points"]
    assert f"{SCRIPT.replace('<', '&lt;').replace('>', '&gt;')} baseline &amp; co" in html


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/paper/nope", 404),
        ("/paper/..%2Fx", 404),
        ("/entity/planet/earth", 404),
        ("/entity/method/no-such-method", 404),
        ("/viz/neighbourhood", 400),
        ("/viz/neighbourhood?node=paper/p01&depth=9", 400),
        ("/viz/neighbourhood?node=paper/p01&depth=x", 400),
        ("/viz/neighbourhood?node=paper/p01&types=planet", 400),
        ("/viz/neighbourhood?node=paper/p01&limit=0", 400),
        ("/viz/neighbourhood?node=paper/none", 404),
        ("/viz/neighbourhood?node=<script>", 404),
        ("/viz/overview?limit=2", 400),
        ("/viz/overview?limit=x", 400),
    ],
)
def test_bad_requests_are_refused(client: Any, path: str, status: int) -> None:
    assert client.get(path).status_code == status


# -- graph views --------------------------------------------------------------------------------


def test_neighbourhood_view_nodes_links_and_tooltips(client: Any) -> None:
    html = client.get(f"/viz/neighbourhood?node=paper/{HOSTILE_KEY}").get_data(as_text=True)
    data = graph_data(html)
    nodes = {n["id"]: n for n in data["nodes"]}
    assert set(nodes) == {
        f"paper/{HOSTILE_KEY}", HOSTILE_METHOD, HOSTILE_DATASET, "task/image-classification",
        "metric/accuracy", "domain/computer-vision",
    }
    method = nodes[HOSTILE_METHOD]
    assert method["label"] == f"{SCRIPT} Net"
    assert method["title"] == f"Method: {SCRIPT} Net\nSupport: 1 paper\nAlso: {IMG}&amp;"
    assert method["url"] == f"/id/{HOSTILE_METHOD}"
    assert method["shape"] == "dot" and method["color"] == viz.NODE_STYLES["method"][1]
    edges = {(e["from"], e["to"]): e["label"] for e in data["edges"]}
    assert edges[(f"paper/{HOSTILE_KEY}", HOSTILE_METHOD)] == "proposes"
    assert edges[(f"paper/{HOSTILE_KEY}", HOSTILE_DATASET)] == "uses dataset"
    assert data["options"]["physics"]["stabilization"]["iterations"] <= 300
    assert data["options"]["edges"]["smooth"] is False
    assert 'id="trim-notice"' not in html
    assert re.findall(r'<li data-type="(\w+)">', html) == [
        "paper", "method", "dataset", "task", "metric", "domain"]


def test_neighbourhood_view_is_capped_and_says_so(client: Any) -> None:
    html = client.get("/viz/neighbourhood?node=metric/accuracy&depth=2&limit=5").get_data(
        as_text=True)
    data = graph_data(html)
    assert len(data["nodes"]) == 5
    assert "metric/accuracy" in {n["id"] for n in data["nodes"]}
    notice = re.search(r'<p class="notice" id="trim-notice"[^>]*>(.*?)</p>', html).group(1)
    assert re.fullmatch(r"Showing 5 of \d+ nodes: this view is capped at 5 nodes and keeps "
                        r"those nearest to accuracy\.", notice)


def test_neighbourhood_type_filter_keeps_the_centre(client: Any) -> None:
    data = graph_data(client.get(
        "/viz/neighbourhood?node=paper/p01&depth=2&types=dataset,metric").get_data(as_text=True))
    types = {n["id"].split("/")[0] for n in data["nodes"]}
    assert types == {"paper", "dataset", "metric"}
    assert [n["id"] for n in data["nodes"] if n["id"].startswith("paper/")] == ["paper/p01"]


def test_overview_links_papers_through_shared_entities_in_named_groups(client: Any) -> None:
    html = client.get("/viz/overview").get_data(as_text=True)
    data = graph_data(html)
    nodes = {n["id"]: n for n in data["nodes"]}
    papers = {i for i in nodes if i.startswith("paper/")}
    assert len(papers) == 15
    graph = nx.Graph((e["from"], e["to"]) for e in data["edges"])
    assert nx.is_connected(graph) and set(graph) == set(nodes)
    # Every entity drawn is shared: it links two papers or more, and only papers.
    for entity in set(nodes) - papers:
        assert len(list(graph.neighbors(entity))) >= 2
        assert set(graph.neighbors(entity)) <= papers
    # Each group has a colour and a name made of its members' labels.
    groups = re.findall(r'<li>\n<span class="swatch" style="background: (#[0-9a-f]{6})">'
                        r'</span>(.*?) \((\d+) papers?\)</li>', html)
    assert len(groups) >= 3
    assert sum(int(n) for _, _, n in groups) == 15
    for colour, name, _ in groups:
        members = [n for n in nodes.values() if n["color"] == colour]
        labels = {n["label"] for n in members if not n["id"].startswith("paper/")}
        assert name.split(" · ")[0] in labels
    assert 'id="trim-notice"' not in html
    assert data["options"]["physics"]["stabilization"]["enabled"] is True


def test_overview_is_the_same_twice(client: Any) -> None:
    assert client.get("/viz/overview").data == client.get("/viz/overview").data


def test_overview_is_capped_and_says_what_it_left_out(client: Any) -> None:
    html = client.get("/viz/overview?limit=20").get_data(as_text=True)
    data = graph_data(html)
    assert len(data["nodes"]) <= 20
    notice = re.search(r'<p class="notice" id="trim-notice"[^>]*>(.*?)</p>', html).group(1)
    papers = sum(1 for n in data["nodes"] if n["id"].startswith("paper/"))
    assert notice.startswith(f"Showing {papers} of 15 papers and {len(data['nodes']) - papers}"
                             " of 28 entities that two or more papers share: this view is "
                             "capped at 20 nodes")


def test_cap_graph_keeps_the_centre_and_its_nearest() -> None:
    graph = nx.path_graph(["a", "b", "c", "d", "e"], create_using=nx.DiGraph)
    kept, trimmed = viz.cap_graph(graph, 3, centre="c")
    assert trimmed and set(kept) == {"b", "c", "d"}
    same, trimmed = viz.cap_graph(graph, 5, centre="c")
    assert not trimmed and same is graph


def test_view_is_trimmed_to_the_cap_even_when_handed_more() -> None:
    graph = nx.star_graph(30)
    graph = nx.relabel_nodes(graph, {i: f"method/m{i}" for i in graph})
    html = viz.neighbourhood_html(graph, title="t", cap=10, centre="method/m0")
    assert len(graph_data(html)["nodes"]) == 10
    assert "Showing 10 of 31 nodes" in html


def test_write_viz_makes_a_standalone_offline_file(store: Any, tmp_path: Path) -> None:
    out = viz.write_viz(store, "paper/p02", depth=1, limit=50, out_path=tmp_path / "v.html")
    html = out.read_text(encoding="utf-8")
    assert not re.search(r"<(script|link)\b[^>]*(src|href)=", html)
    assert "vis.Network" in html and len(html) > 400_000
    data = graph_data(html)
    urls = {n["id"]: n["url"] for n in data["nodes"]}
    assert urls["dataset/imagenet"] == "https://w3id.org/paperkg/id/dataset/imagenet"


def test_write_viz_names_an_unknown_node(store: Any, tmp_path: Path) -> None:
    with pytest.raises(viz.UnknownNode, match="'paper/zzz' is not in the graph"):
        viz.write_viz(store, "paper/zzz", out_path=tmp_path / "v.html")


def test_every_home_example_query_answers_rows(client: Any) -> None:
    from api.pages.home import EXAMPLE_QUERIES, with_prefixes

    for title, query in EXAMPLE_QUERIES:
        response = client.post("/sparql", data={"query": with_prefixes(query)},
                               headers={"Accept": "application/sparql-results+json"})
        assert response.status_code == 200, (title, response.get_data(as_text=True))
        assert response.get_json()["results"]["bindings"], title


def test_a_datasets_page_shows_its_leaderboards(client: Any) -> None:
    html = client.get("/entity/dataset/cifar-10").get_data(as_text=True)
    boards = re.findall(r'<section class="board" data-dataset="([^"]+)" data-metric="([^"]+)"',
                        html)
    assert boards == [("CIFAR-10", "accuracy"), ("CIFAR-10", "FID")]
    method = client.get("/entity/method/sparse-routing-attention").get_data(as_text=True)
    assert 'class="board"' not in method
