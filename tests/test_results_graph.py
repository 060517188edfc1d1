"""Results worth a leaderboard: a Result links the metric, dataset, model and baseline entities
its sentence names, says which way its metric goes, answers the docs/api.md query, and an
incremental add or remove keeps all of it right."""

from __future__ import annotations

import re
from contextlib import closing
from decimal import Decimal
from pathlib import Path

import pytest

from graph.build.incremental import add_papers, remove_paper
from graph.extractors.metric_direction import higher_is_better
from graph.model import Mention, Paper, PaperExtraction, Result
from graph.store import EmbeddedStore
from graph.vocab import PKG, result_iri
from tests.scale.graphs import BASE, corpus_quads
from tests.test_incremental import _extract_from

ROOT = Path(__file__).resolve().parent.parent
XSD_BOOLEAN = "http://www.w3.org/2001/XMLSchema#boolean"


def leaderboard_query() -> str:
    """The query exactly as docs/api.md gives it."""
    doc = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    found = re.search(r"<!-- leaderboard-query -->\n```sparql\n(.*?)```", doc, re.S)
    if found is None:
        pytest.fail("docs/api.md has no leaderboard query block")
    return found.group(1)


def _span(text: str, surface: str) -> tuple[int, int]:
    start = text.index(surface)
    return start, start + len(surface)


def _mention(text: str, surface: str, type_: str, **options) -> Mention:
    return Mention(type_, surface, *_span(text, surface), f"{type_}s.v1", 0.9, **options)


def _result(text: str, surface: str, value: str, unit: str | None, **fields) -> Result:
    return Result(Decimal(value), surface, *_span(text, surface), unit=unit, **fields)


def _paper(key: str, title: str, text: str, entities: list[tuple[str, str]], claim: str,
           results: tuple[Result, ...]) -> PaperExtraction:
    mentions = [_mention(text, surface, type_) for surface, type_ in entities]
    mentions.append(_mention(text, claim, "claim", claim_kind="empirical", results=results))
    return PaperExtraction(Paper(key=key, abstract=text, title=title, id=key), mentions)


def papers() -> list[PaperExtraction]:
    a = ("We propose Kestrel, a parser. Kestrel reaches 91.2% accuracy on PennBank, "
         "compared to 89.0% for Heron.")
    claim_a = a[a.index("Kestrel reaches"):]
    b = "Heron is a parser. On PennBank, Heron lowers the error rate to 7.5%."
    claim_b = b[b.index("On PennBank"):]
    c = "Osprey is a language model. Osprey reaches a perplexity of 21.4 on WikiProse."
    claim_c = c[c.index("Osprey reaches"):]
    return [
        _paper("pa", "Kestrel", a,
               [("Kestrel", "model"), ("accuracy", "metric"), ("PennBank", "dataset"),
                ("Heron", "model")],
               claim_a,
               (_result(a, "91.2%", "91.2", "%", metric="accuracy", dataset="PennBank",
                        model="Kestrel", baseline="Heron"),
                _result(a, "89.0%", "89.0", "%", dataset="PennBank", model="Heron"))),
        _paper("pb", "Heron", b,
               [("Heron", "model"), ("PennBank", "dataset"), ("error rate", "metric")],
               claim_b,
               (_result(b, "7.5%", "7.5", "%", metric="error rate", dataset="PennBank",
                        model="Heron"),)),
        _paper("pc", "Osprey", c,
               [("Osprey", "model"), ("perplexity", "metric"), ("WikiProse", "dataset")],
               claim_c,
               (_result(c, "21.4", "21.4", None, metric="perplexity", dataset="WikiProse",
                        model="Osprey"),)),
    ]


def rows(store) -> list[tuple]:
    out = []
    for s in store.query(leaderboard_query()):
        out.append(tuple(None if s[v] is None else s[v].value for v in (
            "dataset", "metric", "value", "unit", "higherIsBetter", "model", "baseline",
            "title")))
    return out


@pytest.fixture
def store(tmp_path):
    with closing(EmbeddedStore(str(tmp_path / "store"))) as opened:
        yield opened


LEADERBOARD = [
    ("PennBank", "accuracy", "91.2", "%", "true", "Kestrel", "Heron", "Kestrel"),
    ("PennBank", "error rate", "7.5", "%", "false", "Heron", None, "Heron"),
    ("PennBank", None, "89", "%", None, "Heron", None, "Kestrel"),
    ("WikiProse", "perplexity", "21.4", None, "false", "Osprey", None, "Osprey"),
]


def test_the_documented_query_gives_the_leaderboard(store):
    store.replace_all(corpus_quads(papers()))
    assert rows(store) == LEADERBOARD


def test_result_links_are_entity_iris_with_the_direction():
    quads = corpus_quads(papers())
    node = result_iri(BASE, "pa", 1, 1)
    got = sorted((q.predicate.value[len(PKG):], q.object.value) for q in quads
                 if q.subject.value == node and q.predicate.value.startswith(PKG))
    assert got == [
        ("baseline", f"{BASE}model/heron"),
        ("dataset", f"{BASE}dataset/pennbank"),
        ("higherIsBetter", "true"),
        ("metric", f"{BASE}metric/accuracy"),
        ("model", f"{BASE}model/kestrel"),
        ("unit", "%"),
        ("value", "91.2"),
    ]
    direction = next(q.object for q in quads
                     if q.subject.value == node and q.predicate.value == f"{PKG}higherIsBetter")
    assert direction.datatype.value == XSD_BOOLEAN


def test_adding_and_removing_a_paper_keeps_the_leaderboard_right(store):
    extractions = papers()
    store.replace_all(corpus_quads(extractions[:2]))
    add_papers(store, [extractions[2].paper], base=BASE, extract=_extract_from(extractions))
    assert rows(store) == LEADERBOARD
    assert set(store.quads()) == set(corpus_quads(extractions))

    assert remove_paper(store, "pb", base=BASE)
    assert rows(store) == [r for r in LEADERBOARD if r[-1] != "Heron"]
    orphans = list(store.query(
        f"SELECT ?r WHERE {{ ?r a <{PKG}Result> FILTER NOT EXISTS {{ ?c <{PKG}result> ?r }} }}"))
    assert orphans == []


@pytest.mark.parametrize(("metric", "expected"), [
    ("accuracy", True), ("top-1 accuracy", True), ("F1 score", True), ("BLEU", True),
    ("mIoU", True), ("speedup", True), ("NMI", True),
    ("error rate", False), ("top-1 error", False), ("perplexity", False), ("FID score", False),
    ("negative log-likelihood", False), ("latency", False), ("training loss", False),
    ("kappa", None), ("images", None),
])
def test_direction_of_metrics(metric, expected):
    assert higher_is_better(metric) is expected
