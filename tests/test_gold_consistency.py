"""The gold set's own consistency (graph/eval/consistency.py), on a made-up gold file."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from graph import eval as ev
from graph.cli import cli
from graph.eval import consistency as gc
from graph.model import Mention, Paper, PaperExtraction


def _paper(pid: str, abstract: str, mentions: list[tuple[str, str]],
           entities: dict[str, list[str]]) -> dict:
    spans = []
    for etype, text in mentions:
        start = abstract.index(text)
        spans.append({"type": etype, "start": start, "end": start + len(text), "text": text})
    return {
        "id": pid,
        "abstract": abstract,
        "mentions": spans,
        "entities": {t: [{"name": n, "aliases": []} for n in names]
                     for t, names in entities.items()},
    }


PAPERS = [
    _paper("a", "We train FooNet on BarSet, reaching 50 mAP.",
           [("method", "FooNet"), ("dataset", "BarSet"), ("metric", "mAP")],
           {"method": ["FooNet"], "dataset": ["BarSet"], "metric": ["mAP"]}),
    _paper("b", "FooNets are tested on BarSet with a mAP of 40.",
           [("method", "FooNets"), ("dataset", "BarSet"), ("metric", "mAP")],
           {"method": ["FooNets"], "dataset": ["BarSet"], "metric": ["mAP"]}),
    # FooNet once inside a longer mention and once on its own, left out; "map" is a word
    _paper("c", "A deep FooNet ensemble is compared with FooNet on the BarSet map.",
           [("method", "deep FooNet ensemble"), ("dataset", "BarSet")],
           {"method": ["deep FooNet ensemble"], "dataset": ["BarSet"]}),
    # FooNet only inside a hyphenated word and a longer mention; BarSet annotated as a task
    _paper("d", "A FooNet-like map on BarSet with a big FooNet model.",
           [("task", "BarSet"), ("method", "big FooNet model")],
           {"task": ["BarSet"], "method": ["big FooNet model"]}),
]


def _gold(tmp_path: Path) -> Path:
    path = tmp_path / "gold.json"
    path.write_text(json.dumps({"version": 1, "source": "test", "papers": PAPERS}))
    return path


def test_consistency_counts_recurring_names_where_they_stand_alone(tmp_path: Path) -> None:
    result = gc.consistency(ev.load_gold(_gold(tmp_path)))
    # the task BarSet is in one paper only: no recurring task names
    assert set(result) == {"method", "dataset", "metric"}
    method = result["method"]
    assert (method.names, method.pairs, method.annotated, method.other_type) == (1, 3, 2, 0)
    assert method.per_name == {"foonet": [3, 2]}
    dataset = result["dataset"]
    assert (dataset.names, dataset.pairs, dataset.annotated, dataset.other_type) == (1, 4, 3, 1)
    assert dataset.share == 0.75
    # "map" in c and d is not "mAP"
    metric = result["metric"]
    assert (metric.pairs, metric.annotated) == (2, 2)


def test_name_pattern_finds_plural_and_hyphenated_forms_as_whole_words() -> None:
    pattern = gc.name_pattern(["convolutional neural network", "strategy"])
    found = [m.group() for m in pattern.finditer(
        "Convolutional Neural-Networks and strategies, not deep-strategy-like or "
        "convolutional neural networked")]
    assert found == ["Convolutional Neural-Networks", "strategies"]


def _mention(etype: str, text: str, abstract: str) -> Mention:
    start = abstract.index(text)
    return Mention(type=etype, text=text, start=start, end=start + len(text), extractor="test",
                   confidence=1.0)


def test_recurring_spurious_counts_false_positives_the_gold_has_elsewhere(tmp_path: Path) -> None:
    gold = ev.load_gold(_gold(tmp_path))
    abstracts = {p["id"]: p["abstract"] for p in PAPERS}
    predicted = {
        "a": [("method", "FooNet")],
        # on its own in c: the gold left out a name it has in a and b
        "c": [("method", "FooNet"), ("dataset", "QuxSet")],
        # only inside "big FooNet model" in d: a wrong span, not the gold's omission
        "d": [("method", "FooNet")],
    }
    abstracts["c"] += " QuxSet."
    extractions = [
        PaperExtraction(paper=Paper(key=pid, abstract=abstracts[pid]),
                        mentions=[_mention(t, text, abstracts[pid]) for t, text in items])
        for pid, items in predicted.items()
    ]
    report = ev.score(gold, extractions, use_resolver=False)
    result = gc.recurring_spurious(gold, report)
    method = result["method"]
    assert (method.score.tp, method.score.fp, method.recurring) == (1, 2, 1)
    assert method.names == {"FooNet": 1}
    assert round(method.precision_if_counted, 4) == 0.6667
    # QuxSet is in no other paper's gold
    assert (result["dataset"].score.fp, result["dataset"].recurring) == (1, 0)


def test_eval_consistency_command_prints_json(tmp_path: Path) -> None:
    out = CliRunner().invoke(cli, ["eval", "--gold", str(_gold(tmp_path)), "--consistency",
                                   "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["consistency"]["dataset"]["share"] == 0.75
    assert data["consistency"]["method"]["frequent"] == [
        {"name": "foonet", "pairs": 3, "annotated": 2}
    ]
    assert set(data["recurring_spurious"]) == {"method", "dataset", "task", "metric"}


def test_eval_consistency_refuses_a_threshold(tmp_path: Path) -> None:
    out = CliRunner().invoke(cli, ["eval", "--gold", str(_gold(tmp_path)), "--consistency",
                                   "--threshold", "0.5"])
    assert out.exit_code != 0
    assert "--consistency" in out.output
