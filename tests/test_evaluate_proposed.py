"""Scoring of `proposed` names (pkg:proposes) against the gold set's hand-written `proposes`."""

from __future__ import annotations

import json
from pathlib import Path

from graph.eval import format_table, load_gold, score, score_proposed
from graph.model import Mention, Paper, PaperExtraction

ABSTRACT = (
    "We propose Gated Flow Networks (GFN), trained with stochastic gradient descent. "
    "GFN beats LSTM on the Penn Treebank."
)


def _mention(text: str, etype: str = "method", *, proposed: bool, label: str | None = None,
             aliases: tuple[str, ...] = ()) -> Mention:
    start = ABSTRACT.index(text)
    return Mention(type=etype, text=text, start=start, end=start + len(text), extractor="t",
                   confidence=0.9, label=label, aliases=aliases, proposed=proposed)


def _gold(tmp_path: Path, proposes: list | None) -> Path:
    rec = {"id": "p1", "title": None, "abstract": ABSTRACT, "entities": {}}
    if proposes is not None:
        rec["proposes"] = proposes
    path = tmp_path / "gold.json"
    path.write_text(json.dumps({"papers": [rec]}), encoding="utf-8")
    return path


def test_proposed_matched_by_alias_and_only_proposed_mentions_count(tmp_path: Path) -> None:
    gold = load_gold(_gold(tmp_path, [{"name": "Gated Flow Networks", "aliases": ["GFN"]}]))
    mentions = [
        # the acronym's later use names the same proposal: one entity, not two
        _mention("GFN", proposed=True, label="Gated Flow Networks"),
        _mention("Gated Flow Networks", proposed=True, aliases=("GFN",)),
        _mention("stochastic gradient descent", proposed=False),
        _mention("LSTM", proposed=True),
    ]
    result = score_proposed(gold[0].proposes, mentions)
    assert (result.score.tp, result.score.fp, result.score.fn) == (1, 1, 0)
    assert result.spurious == ["LSTM"]
    assert result.missed == []


def test_report_counts_only_annotated_papers(tmp_path: Path) -> None:
    paper = Paper(key="p1", abstract=ABSTRACT, id="p1")
    ext = PaperExtraction(paper=paper, mentions=[_mention("Penn Treebank", "dataset", proposed=True)])
    unannotated = score(load_gold(_gold(tmp_path, None)), [ext], use_resolver=False)
    assert unannotated.proposed.papers == 0
    assert unannotated.to_dict()["proposed"] is None

    report = score(load_gold(_gold(tmp_path, ["Gated Flow Networks"])), [ext], use_resolver=False)
    assert report.to_dict()["proposed"] == {
        "papers": 1, "tp": 0, "fp": 1, "fn": 1, "precision": 0.0, "recall": 0.0, "f1": 0.0,
    }
    assert report.papers[0].proposed_missed == ["Gated Flow Networks"]
    assert report.papers[0].proposed_spurious == ["Penn Treebank"]
    assert "proposed: 1 papers, 1 gold / 1 predicted, 0 matched" in format_table(report)


def test_empty_proposes_makes_every_proposed_name_spurious(tmp_path: Path) -> None:
    gold = load_gold(_gold(tmp_path, []))
    assert gold[0].proposes == ()
    result = score_proposed(gold[0].proposes, [_mention("LSTM", proposed=True)])
    assert (result.score.tp, result.score.fp, result.score.fn) == (0, 1, 0)


def test_dev_gold_has_proposes_for_the_hand_annotated_papers() -> None:
    gold = load_gold(Path(__file__).parent / "gold" / "dev.json")
    annotated = [g for g in gold if g.proposes is not None]
    assert len(annotated) == 40
    assert annotated == [g for g in gold if g.claims is not None]
    names = {n for g in annotated for n, _ in g.proposes}
    assert {"LeakGAN", "SiamMask", "Bi-Directional Attention Flow"} <= names


def test_sweep_table_has_a_proposed_column_when_the_gold_has_proposes(tmp_path: Path) -> None:
    from graph.eval import format_sweep

    paper = Paper(key="p1", abstract=ABSTRACT, id="p1")
    ext = PaperExtraction(paper=paper, mentions=[_mention("Gated Flow Networks", proposed=True)])
    with_gold = score(load_gold(_gold(tmp_path, ["Gated Flow Networks"])), [ext], use_resolver=False)
    table = format_sweep([with_gold])
    assert "proposed P/R" in table.splitlines()[0]
    assert table.splitlines()[2].rstrip().endswith("1.000/1.000")
    without = score(load_gold(_gold(tmp_path, None)), [ext], use_resolver=False)
    assert "proposed" not in format_sweep([without])
