"""The evaluation harness: name matching, scoring arithmetic, and a run on real gold papers."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

from graph import eval as ev
from graph import extractors as registry
from graph.errors import InputError, PaperkgError
from graph.model import Mention, Paper, PaperExtraction, Result

GOLD = Path(__file__).parent / "gold" / "dev.json"


def _gold_file(tmp_path: Path, papers: list[dict]) -> Path:
    path = tmp_path / "gold.json"
    path.write_text(json.dumps({"version": 1, "source": "test", "papers": papers}))
    return path


def _mention(type_: str, text: str, start: int = 0, **kw) -> Mention:
    return Mention(
        type=type_,
        text=text,
        start=start,
        end=start + len(text),
        extractor="test",
        confidence=kw.pop("confidence", 1.0),
        **kw,
    )


def _ext(key: str, mentions: list[Mention], abstract: str = "x") -> PaperExtraction:
    return PaperExtraction(paper=Paper(key=key, abstract=abstract), mentions=mentions)


# ---------------------------------------------------------------- normalising and matching


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Convolutional Neural Networks", "convolutional neural network"),
        ("V-Net", "V Net"),
        ("CNNs", "CNN"),
        ("state-of-the-art", "State of the Art"),
        ("Long Short-Term Memory", "long short term memory"),
        ("word_embeddings", "Word Embeddings"),
        ("  BLEU ", "bleu."),
        ("strategies", "strategy"),
        ("encoder/decoder", "encoder-decoder"),
    ],
)
def test_normalise_folds_surface_variants(a: str, b: str) -> None:
    assert ev.normalise(a) == ev.normalise(b)


@pytest.mark.parametrize(
    ("a", "b"),
    [("FlowNet 2.0", "FlowNet 20"), ("loss", "los"), ("ResNet-50", "ResNet-101"), ("bus", "bu")],
)
def test_normalise_keeps_what_distinguishes_names(a: str, b: str) -> None:
    assert ev.normalise(a) != ev.normalise(b)


def test_normalise_keeps_version_numbers_and_short_words() -> None:
    assert ev.normalise("FlowNet 2.0") == "flownet 2.0"
    assert ev.normalise("loss") == "loss"
    assert ev.normalise("GANs") == "gan"
    assert ev.normalise("analysis") == "analysis"


def test_match_key_ignores_spaces() -> None:
    assert ev.match_key("CNN/DailyMail") == ev.match_key("CNN / Daily Mail") == "cnndailymail"
    assert ev.match_key("VNet") == ev.match_key("V-Net")
    assert ev.name_keys(["ResNets", "Residual Network", ""]) == {"resnet", "residualnetwork"}


def test_match_entities_counts_each_gold_once() -> None:
    gold = [
        ("CNN", ev.name_keys(["CNN", "convolutional neural network"])),
        ("SQuAD", ev.name_keys(["SQuAD"])),
    ]
    pred = ev.group_names([("Convolutional Neural Networks", ()), ("CNNs", ()), ("LSTM", ())])
    # the first two merge only through gold knowledge, not by name: two entities predicted
    assert [p[0] for p in pred] == ["Convolutional Neural Networks", "CNNs", "LSTM"]
    result = ev.match_entities(pred, gold)
    assert (result.score.tp, result.score.fp, result.score.fn) == (1, 2, 1)
    assert result.missed == ["SQuAD"]
    assert result.spurious == ["CNNs", "LSTM"]


def test_aliases_match_either_side() -> None:
    gold = [("Free decompression", ev.name_keys(["Free decompression", "FD"]))]
    by_alias = ev.group_names([("FD", ("FD",))])
    by_pred_alias = ev.group_names([("free-decompressions", ("FD",))])
    assert ev.match_entities(by_alias, gold).score.tp == 1
    assert ev.match_entities(by_pred_alias, gold).score.tp == 1


def test_group_names_merges_mentions_sharing_a_name() -> None:
    groups = ev.group_names([("ResNet", ()), ("Residual Network", ("ResNet",)), ("resnets", ())])
    assert len(groups) == 1
    assert groups[0][0] == "ResNet"
    assert groups[0][1] == {"resnet", "residualnetwork"}


def test_matching_is_maximal_not_greedy() -> None:
    # pred 0 could take either gold; a greedy pass taking gold 0 would leave pred 1 unmatched
    gold = [("A", frozenset({"a", "x"})), ("B", frozenset({"b"}))]
    pred = [("p0", frozenset({"x", "b"})), ("p1", frozenset({"a"}))]
    assert ev.match_entities(pred, gold).score.tp == 2


def test_score_arithmetic() -> None:
    s = ev.Score(tp=3, fp=1, fn=2)
    assert s.precision == pytest.approx(0.75)
    assert s.recall == pytest.approx(0.6)
    assert s.f1 == pytest.approx(2 * 0.75 * 0.6 / 1.35)
    assert ev.Score().f1 == 0.0
    # exactly 0.6 (330 / 550), where 2PR / (P + R) on rounded quotients gives 0.5999...
    assert ev.Score(tp=165, fp=65, fn=155).f1 == 0.6


@pytest.mark.parametrize(
    ("a", "b", "ok"),
    [
        ((0, 10), (5, 30), True),
        ((0, 10), (6, 30), False),
        ((0, 10), (10, 20), False),
        ((10, 20), (0, 100), True),
    ],
)
def test_span_overlap_half_of_shorter(a, b, ok) -> None:
    assert ev.spans_match(a, b) is ok


# ---------------------------------------------------------------- scoring whole reports


def _two_paper_gold(tmp_path: Path) -> list[ev.GoldPaper]:
    text = "We propose FooNet. It reaches 91.2% accuracy on SQuAD. We prove a bound."
    papers = [
        {
            "id": "p1",
            "title": "t",
            "abstract": text,
            "entities": {
                "method": [{"name": "FooNet", "aliases": []}, {"name": "attention", "aliases": []}],
                "dataset": [{"name": "SQuAD", "aliases": ["Stanford QA Dataset"]}],
                "task": [],
                "metric": [{"name": "accuracy", "aliases": []}],
                "model": [],
            },
            "domains": ["natural-language-processing"],
            "claims": [
                {
                    "start": 19,
                    "end": 54,
                    "text": text[19:54],
                    "kind": "empirical",
                    "quantities": [{"start": 30, "end": 35, "text": "91.2%"}],
                },
                {
                    "start": 55,
                    "end": 73,
                    "text": text[55:73],
                    "kind": "theoretical",
                    "quantities": [],
                },
            ],
        },
        {
            "id": "p2",
            "title": None,
            "abstract": "Another text about BarNet on MNIST.",
            "entities": {
                "method": [{"name": "BarNet", "aliases": []}],
                "dataset": [{"name": "MNIST", "aliases": []}],
                "task": [],
                "metric": [],
                "model": [],
            },
            "domains": ["computer-vision"],
        },
    ]
    return ev.load_gold(_gold_file(tmp_path, papers))


def test_score_micro_averages_over_papers(tmp_path: Path) -> None:
    gold = _two_paper_gold(tmp_path)
    extractions = [
        _ext(
            "p1",
            [
                _mention("method", "FooNet"),
                _mention("method", "FooNet", 40),
                _mention("dataset", "Stanford QA dataset"),
                _mention("metric", "accuracy"),
                _mention("task", "question answering"),
            ],
        ),
        _ext(
            "p2",
            [
                _mention("method", "BazNet"),
                _mention("model", "BarNet"),
                _mention("dataset", "mnist"),
            ],
        ),
    ]
    report = ev.score(gold, extractions, use_resolver=False)
    m = report.entities["method"]
    # p1: FooNet tp (two mentions, one entity), attention fn; p2: BarNet tp via model, BazNet fp
    assert (m.tp, m.fp, m.fn) == (2, 1, 1)
    assert report.method_only.tp == 1 and report.method_only.fp == 1
    assert report.model_vs_methods.tp == 1 and report.model_vs_methods.fp == 0
    d = report.entities["dataset"]
    assert (d.tp, d.fp, d.fn) == (2, 0, 0)
    t = report.entities["task"]
    assert (t.tp, t.fp, t.fn) == (0, 1, 0)
    assert report.no_gold == ["model", "task"]
    assert report.papers[0].missed == {"method": ["attention"]}
    assert report.papers[0].spurious == {"task": ["question answering"]}
    assert report.papers[1].spurious == {"method": ["BazNet"]}


def test_resolver_labels_and_aliases_name_the_entities(tmp_path: Path) -> None:
    pytest.importorskip("graph.resolve")
    gold = _two_paper_gold(tmp_path)
    # "FN" is only an alias; resolved, the two mentions are one entity named FooNet
    extractions = [
        _ext("p1", [_mention("method", "FooNet", aliases=("FN",)), _mention("method", "FN", 30)])
    ]
    report = ev.score(gold, extractions, use_resolver=True)
    assert report.resolver is True
    m = report.entities["method"]
    assert (m.tp, m.fp, m.fn) == (1, 0, 2)


def test_threshold_drops_low_confidence(tmp_path: Path) -> None:
    gold = _two_paper_gold(tmp_path)
    extractions = [
        _ext(
            "p1",
            [
                _mention("method", "FooNet", confidence=0.9),
                _mention("method", "junk", confidence=0.2),
            ],
        )
    ]
    low = ev.score(gold, ev.filter_confidence(extractions, None), use_resolver=False)
    high = ev.score(gold, ev.filter_confidence(extractions, 0.5), use_resolver=False)
    assert (low.entities["method"].tp, low.entities["method"].fp) == (1, 1)
    assert (high.entities["method"].tp, high.entities["method"].fp) == (1, 0)


def test_domains_hit_rate_and_precision_with_broader(tmp_path: Path) -> None:
    gold = _two_paper_gold(tmp_path)
    extractions = [
        _ext(
            "p1",
            [
                _mention("domain", "text", label="question-answering"),
                _mention("domain", "text", label="robotics"),
            ],
        ),
        _ext("p2", [_mention("domain", "x", label="machine-learning")]),
    ]
    tree = {
        "question-answering": ["natural-language-processing"],
        "natural-language-processing": ["machine-learning"],
        "computer-vision": ["machine-learning"],
    }
    plain = ev.score(gold, extractions, use_resolver=False).domains
    assert (plain.papers, plain.papers_hit, plain.correct, plain.predicted) == (2, 0, 0, 3)
    with_tree = ev.score(
        gold, extractions, use_resolver=False, broader=lambda s: tree.get(s, [])
    ).domains
    # narrower (question-answering) and broader (machine-learning) both count; robotics does not
    assert (with_tree.papers_hit, with_tree.correct, with_tree.predicted) == (2, 2, 3)
    assert with_tree.hit_rate == 1.0
    assert with_tree.precision == pytest.approx(2 / 3)


def test_claims_recall_precision_kind_and_numbers(tmp_path: Path) -> None:
    gold = _two_paper_gold(tmp_path)
    text = gold[0].abstract
    result = Result(value=Decimal("91.2"), text="91.2%", start=30, end=35, unit="%")
    extractions = [
        _ext(
            "p1",
            [
                # covers the first gold sentence plus a bit: matches, right kind, number captured
                _mention("claim", text[15:54], 15, claim_kind="empirical", results=(result,)),
                # first words of the last sentence only: 9 of 18 chars, exactly half the shorter
                _mention("claim", text[55:64], 55, claim_kind="contribution"),
                _mention("claim", text[0:10], 0, claim_kind="contribution"),
            ],
            abstract=text,
        )
    ]
    c = ev.score(gold, extractions, use_resolver=False).claims
    assert c.papers == 1  # p2 has no gold claims and is not scored for them
    assert (c.sentences.tp, c.sentences.fp, c.sentences.fn) == (2, 1, 0)
    assert c.kind_accuracy == 0.5
    assert (c.quantities, c.quantities_captured) == (1, 1)


def test_format_table_and_json(tmp_path: Path) -> None:
    gold = _two_paper_gold(tmp_path)
    report = ev.score(
        gold, [_ext("p1", [_mention("method", "FooNet")])], use_resolver=False, gold_name="g.json"
    )
    table = ev.format_table(report)
    assert "method (+model)" in table
    assert "(no gold models)" in table
    assert "method f1" in table and "FAIL" in table
    lines = table.splitlines()
    targets = lines[lines.index(next(x for x in lines if x.startswith("target"))) + 2 :]
    assert len(targets) == 11
    rows = {" ".join(line.split()[:2]): line.split() for line in targets}
    assert rows["method precision"][2:] == ["1.000", "0.750", "pass"]
    assert rows["model f1"][2:] == ["n/a", "0.600", "n/a"]
    data = json.loads(report.to_json())
    assert data["entities"]["model"] is None
    assert data["entities"]["method"]["tp"] == 1
    assert data["entities"]["method"]["fn"] == 2
    assert data["per_paper"][0]["missed"]["method"] == ["attention"]
    assert {c["row"] for c in data["checks"]} == set(ev.TARGETS)


def test_load_gold_errors_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="gold file not found"):
        ev.load_gold(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(InputError, match="bad.json"):
        ev.load_gold(bad)
    path = _gold_file(tmp_path, [{"id": "x"}])
    with pytest.raises(InputError, match=r"papers\[0\]"):
        ev.load_gold(path)


# ---------------------------------------------------------------- the dev gold set itself


def test_dev_gold_is_consistent() -> None:
    data = json.loads(GOLD.read_text(encoding="utf-8"))
    assert data["version"] == 1
    assert len(data["papers"]) >= 300
    for paper in data["papers"]:
        for m in paper["mentions"]:
            assert paper["abstract"][m["start"] : m["end"]] == m["text"]
        for claim in paper.get("claims", []):
            assert paper["abstract"][claim["start"] : claim["end"]] == claim["text"]
            for q in claim["quantities"]:
                assert claim["start"] <= q["start"] < q["end"] <= claim["end"]
    annotated = [p for p in data["papers"] if "domains" in p]
    assert len(annotated) >= 40
    assert all(1 <= len(p["domains"]) <= 3 for p in annotated)
    assert all(p["claims"] for p in annotated)


def _fake_methods(doc) -> list[Mention]:
    """Every capitalised token with a digit or an inner capital, as a method ("V-Net", "BiDAF")."""
    out = []
    for tok in doc:
        t = tok.text
        if len(t) > 2 and t[0].isupper() and any(c.isupper() or c.isdigit() for c in t[1:]):
            out.append(
                Mention(
                    type="method",
                    text=t,
                    start=tok.idx,
                    end=tok.idx + len(t),
                    extractor="fake",
                    confidence=0.5,
                )
            )
    return out


def test_evaluate_runs_pipeline_on_dev_slice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry._REGISTRY, "fake.v1", f"{__name__}:_fake_methods")
    report = ev.evaluate(GOLD, extractors=["fake.v1"], limit=3, use_resolver=False)
    assert report.n_papers == 3
    assert [p.id for p in report.papers] == [
        "000f90380d768a85e2316225854fc377c079b5c4",
        "0012de6bec1f25599e4f02517637e531a71909b9",
        "007ab5528b3bd310a80d553cccad4b78dc496b02",
    ]
    m = report.entities["method"]
    # the rule finds FRRN, FRRNs, CNNs, BiDAF ...; all gold methods are counted as gold
    gold = ev.load_gold(GOLD, limit=3)
    assert m.n_gold == sum(len(p.entities["method"]) for p in gold)
    assert m.tp >= 3
    assert m.fp >= 1
    assert report.entities["dataset"].tp == 0
    high = ev.evaluate(GOLD, extractors=["fake.v1"], limit=3, threshold=0.6, use_resolver=False)
    assert high.entities["method"].n_pred == 0


def test_evaluate_rejects_unknown_extractor() -> None:
    with pytest.raises(PaperkgError, match="unknown extractor"):
        ev.evaluate(GOLD, extractors=["nope.v1"], limit=1)


def test_evaluate_with_default_extractors() -> None:
    names, missing = ev.available_extractors()
    if not names:
        pytest.skip(f"no extractor module importable yet (missing: {', '.join(missing)})")
    report = ev.evaluate(GOLD, limit=3)
    assert report.extractors == names
    assert report.not_run == missing
    assert report.n_papers == 3
    text = ev.format_table(report)
    assert text.splitlines()[0].startswith(f"gold: {GOLD}")
    assert json.loads(ev.run_eval(GOLD, as_json=True, limit=2))["papers"] == 2
