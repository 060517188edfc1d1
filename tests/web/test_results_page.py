"""Results read as both today's literals and entity links, leaderboards, and entity lists.

A small graph written here: Results naming their parts as IRIs with rdfs:label, as literals
(`pkg:metric "…"`, `pkg:datasetName "…"`), with a direction on the Result or on its metric.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyoxigraph
import pytest
from flask import Flask

from api.pages.entity import is_alias

from .web_fixture import make_app

GRAPH = """
@prefix pkg: <https://w3id.org/paperkg/ns#> .
@prefix id: <https://w3id.org/paperkg/id/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix schema: <https://schema.org/> .
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .

<https://w3id.org/paperkg/id/metric/perplexity> a pkg:Metric ; rdfs:label "perplexity" ;
    pkg:support 2 .
<https://w3id.org/paperkg/id/metric/bleu> a pkg:Metric ; rdfs:label "BLEU" ;
    pkg:direction "higher" ; pkg:support 1 .
<https://w3id.org/paperkg/id/dataset/wt103> a pkg:Dataset ; rdfs:label "WikiText-103" ;
    pkg:support 2 .
<https://w3id.org/paperkg/id/model/big> a pkg:Model ; rdfs:label "BigLM" ; pkg:support 1 .
<https://w3id.org/paperkg/id/method/sra> a pkg:Method ; rdfs:label "sparse routing" ;
    skos:altLabel "SRA", "sparse-routing" ; pkg:support 1 .
<https://w3id.org/paperkg/id/domain/rl> a pkg:Domain, skos:Concept ;
    skos:prefLabel "Reinforcement learning" ; skos:altLabel "RL", "Q-learning", "self-play" .

<https://w3id.org/paperkg/id/paper/a> a pkg:Paper ; rdfs:label "Paper A" ;
    dcterms:abstract "We propose sparse routing." ;
    pkg:proposes <https://w3id.org/paperkg/id/method/sra> ;
    pkg:usesMethod <https://w3id.org/paperkg/id/method/sra> ;
    pkg:inDomain <https://w3id.org/paperkg/id/domain/rl> ;
    pkg:makesClaim <https://w3id.org/paperkg/id/claim/a-1> .
<https://w3id.org/paperkg/id/paper/b> a pkg:Paper ; rdfs:label "Paper B" ;
    dcterms:abstract "Text." ; pkg:makesClaim <https://w3id.org/paperkg/id/claim/b-1> .

<https://w3id.org/paperkg/id/claim/a-1> a pkg:Claim ;
    schema:text "BigLM reaches a perplexity of 17.2 on WikiText-103, and 30.1 BLEU." ;
    pkg:result <https://w3id.org/paperkg/id/result/a-1-1>,
               <https://w3id.org/paperkg/id/result/a-1-2> .
<https://w3id.org/paperkg/id/result/a-1-1> a pkg:Result ; pkg:value "17.2"^^xsd:decimal ;
    schema:text "17.2" ; pkg:metric <https://w3id.org/paperkg/id/metric/perplexity> ;
    pkg:dataset <https://w3id.org/paperkg/id/dataset/wt103> ;
    pkg:model <https://w3id.org/paperkg/id/model/big> ; pkg:direction pkg:LowerIsBetter .
<https://w3id.org/paperkg/id/result/a-1-2> a pkg:Result ; pkg:value "30.1"^^xsd:decimal ;
    schema:text "30.1" ; pkg:metric <https://w3id.org/paperkg/id/metric/bleu> ;
    pkg:datasetName "WMT14" .
<https://w3id.org/paperkg/id/claim/b-1> a pkg:Claim ;
    schema:text "Ours gets 21.5 perplexity on WikiText-103 against 24.0 for the LSTM." ;
    pkg:result <https://w3id.org/paperkg/id/result/b-1-1> .
<https://w3id.org/paperkg/id/result/b-1-1> a pkg:Result ; pkg:value "21.5"^^xsd:decimal ;
    schema:text "21.5" ; pkg:metric "perplexity" ;
    pkg:dataset <https://w3id.org/paperkg/id/dataset/wt103> ;
    pkg:modelName "Ours" ; pkg:baselineName "LSTM" .
"""


@pytest.fixture(scope="module")
def small_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    from graph.store import open_store

    location = str(Path(tmp_path_factory.mktemp("results")) / "store")
    target = open_store(location)
    try:
        target.replace_all(
            pyoxigraph.Quad(t.subject, t.predicate, t.object)
            for t in pyoxigraph.parse(GRAPH, format=pyoxigraph.RdfFormat.TURTLE))
    finally:
        target.close()
    app = make_app(location)
    yield app
    app.extensions["paperkg"].close()


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_results_read_iris_and_literals_with_their_sentences(small_app: Flask) -> None:
    html = small_app.test_client().get("/results").get_data(as_text=True)
    table = html[html.index('id="results-table"'):]
    rows = [_text(r) for r in re.findall(r"<tr data-metric.*?</tr>", table, re.S)]
    assert rows == [
        "Paper A BigLM reaches a perplexity of 17.2 on WikiText-103, and 30.1 BLEU. 17.2 "
        "perplexity WikiText-103 BigLM",
        "Paper A BigLM reaches a perplexity of 17.2 on WikiText-103, and 30.1 BLEU. 30.1 "
        "BLEU WMT14",
        "Paper B Ours gets 21.5 perplexity on WikiText-103 against 24.0 for the LSTM. 21.5 "
        "perplexity WikiText-103 Ours LSTM",
    ]
    assert '<mark class="quantity">21.5</mark>' in table
    # The filters offer each dataset and metric once, whichever way it was named.
    assert re.findall(r"<option>([^<]+)</option>", html) == [
        "WikiText-103", "WMT14", "BLEU", "perplexity"]


def test_leaderboard_ranks_in_the_metrics_direction(small_app: Flask) -> None:
    html = small_app.test_client().get("/results").get_data(as_text=True)
    boards = re.findall(r'<section class="board" data-dataset="([^"]+)" data-metric="([^"]+)"'
                        r' data-unit="">(.*?)</section>', html, re.S)
    assert [(d, m) for d, m, _ in boards] == [("WikiText-103", "perplexity"), ("WMT14", "BLEU")]
    perplexity = boards[0][2]
    assert "lower is better" in perplexity
    ranked = [_text(r) for r in re.findall(r"<tbody>.*?</tbody>", perplexity, re.S)[0]
              .split("<tr>")[1:]]
    assert ranked == ["1 BigLM 17.2 Paper A", "2 Ours 21.5 Paper B LSTM"]
    assert "higher is better" in boards[1][2]


def test_a_proposed_entity_is_listed_once_on_its_paper(small_app: Flask) -> None:
    html = small_app.test_client().get("/paper/a").get_data(as_text=True)
    entities = html[html.index('id="entities"'):html.index('id="claims"')]
    assert entities.count('href="/entity/method/sra"') == 1
    assert 'href="/entity/method/sra">sparse routing</a> <span class="badge proposed"' in entities


def test_also_called_lists_aliases_and_not_a_domains_topics(small_app: Flask) -> None:
    client = small_app.test_client()
    domain = client.get("/entity/domain/rl").get_data(as_text=True)
    aliases = re.search(r'<p id="aliases">(.*?)</p>', domain).group(1)
    assert re.findall(r'<span class="alias">([^<]+)</span>', aliases) == ["RL"]
    assert re.findall(r'<span class="topic">([^<]+)</span>', domain) == ["Q-learning",
                                                                         "self-play"]
    method = client.get("/entity/method/sra").get_data(as_text=True)
    assert re.findall(r'<span class="alias">([^<]+)</span>', method) == ["SRA",
                                                                         "sparse-routing"]


@pytest.mark.parametrize(("alt", "label", "same"), [
    ("RL", "Reinforcement learning", True),
    ("reinforcement-learning", "Reinforcement learning", True),
    ("Graph neural networks", "graph neural network", True),
    ("Q-learning", "Reinforcement learning", False),
    ("rl", "Reinforcement learning", False),
    ("deep reinforcement learning", "Reinforcement learning", False),
])
def test_is_alias(alt: str, label: str, same: bool) -> None:
    assert is_alias(alt, label) is same


def test_home_examples_carry_their_prefixes(small_app: Flask) -> Any:
    html = small_app.test_client().get("/").get_data(as_text=True)
    queries = re.findall(r'class="run-example" data-query="([^"]+)"', html)
    assert len(queries) == 5
    assert all("PREFIX pkg: &lt;https://w3id.org/paperkg/ns#&gt;" in q for q in queries)
