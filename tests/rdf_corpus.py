"""A small hand-made ResolvedCorpus for the RDF, store, export and shape tests."""

from __future__ import annotations

from decimal import Decimal

from graph.model import Entity, Mention, Paper, PaperExtraction, ResolvedCorpus, Result

BASE = "https://w3id.org/paperkg/id/"
PKG = "https://w3id.org/paperkg/ns#"

ABSTRACT_A = (
    "We propose Sparse Echo Routing (SER), a method for graph clustering. "
    "SER improves NMI by 4.20% on the Orchard benchmark over Dense Routing."
)
ABSTRACT_B = "This survey reviews graph clustering with Dense Routing and spectral methods"


def span(abstract: str, words: str, start: int = 0) -> tuple[int, int]:
    i = abstract.index(words, start)
    return i, i + len(words)


def make_corpus() -> ResolvedCorpus:
    a = ABSTRACT_A
    claim_start = a.index("SER improves")
    s_ser = span(a, "Sparse Echo Routing")
    s_task = span(a, "graph clustering")
    s_metric = span(a, "NMI")
    s_data = span(a, "Orchard")
    s_base = span(a, "Dense Routing")
    s_num = span(a, "4.20%")
    result = Result(
        value=Decimal("4.20"), text="4.20%", start=s_num[0], end=s_num[1], unit="%",
        metric="nmi", dataset="Orchard", baseline="Dense Routing", model="Echo-XL",
    )
    mentions_a = [
        Mention("method", "Sparse Echo Routing", *s_ser, "methods.v1", 0.9,
                label="Sparse Echo Routing", aliases=("SER",), proposed=True),
        Mention("task", "graph clustering", *s_task, "tasks.v1", 0.8123),
        Mention("metric", "NMI", *s_metric, "metrics.v1", 0.7),
        Mention("dataset", "Orchard", *s_data, "datasets.v1", 0.66666),
        Mention("method", "Dense Routing", *s_base, "methods.v1", 0.5),
        Mention("domain", "graph clustering", *s_task, "domains.v1", 0.4, label="machine-learning"),
        Mention("claim", a[claim_start:], claim_start, len(a), "claims.v1", 0.75,
                claim_kind="empirical", results=(result,)),
        # dropped by the resolver: no link, no triple
        Mention("model", "method", 13, 19, "models.v1", 0.1),
    ]
    b = ABSTRACT_B
    mentions_b = [
        Mention("method", "Dense Routing", *span(b, "Dense Routing"), "methods.v1", 0.6),
        Mention("task", "graph clustering", *span(b, "graph clustering"), "tasks.v1", 0.8),
    ]
    paper_a = Paper(key="a1b2c3d4e5f6", abstract=a, title="Sparse Echo Routing for Graphs",
                    authors=("Ada Lovelace", "Alan Turing"), year=2024, venue="TestConf 2024")
    paper_b = Paper(key="survey-1", abstract=b)
    entities = {
        "method/sparse-echo-routing": Entity("method", "sparse-echo-routing",
                                             "Sparse Echo Routing", {"SER"}, {paper_a.key}),
        "method/dense-routing": Entity("method", "dense-routing", "Dense Routing", set(),
                                       {paper_a.key, paper_b.key}),
        "task/graph-clustering": Entity("task", "graph-clustering", "graph clustering", set(),
                                        {paper_a.key, paper_b.key}),
        "metric/normalized-mutual-information": Entity(
            "metric", "normalized-mutual-information", "normalized mutual information",
            {"NMI"}, {paper_a.key}),
        "dataset/orchard": Entity("dataset", "orchard", "Orchard", set(), {paper_a.key}),
    }
    links = {
        paper_a.key: ["method/sparse-echo-routing", "task/graph-clustering",
                      "metric/normalized-mutual-information", "dataset/orchard",
                      "method/dense-routing", None, None, None],
        paper_b.key: ["method/dense-routing", "task/graph-clustering"],
    }
    return ResolvedCorpus(
        extractions={
            paper_a.key: PaperExtraction(paper_a, mentions_a),
            paper_b.key: PaperExtraction(paper_b, mentions_b),
        },
        entities=entities,
        links=links,
        duplicates=[(paper_b.key, "corpus.jsonl:7")],
    )
