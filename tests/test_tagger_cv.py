"""Cross-validation of the tagger (folds over train documents only) and the confidence cutoffs
that mentions.v2 applies to tagged spans. No torch: the training modules are not imported."""

from __future__ import annotations

import json

import numpy as np
import pytest

from graph.errors import InputError
from graph.eval.splits import SCIREX_DEV_SHARE, is_dev
from graph.extractors import mentions
from graph.extractors.candidates import Candidate
from graph.nlp import tagging_cutoffs as cutoff_file
from graph.nlp.tagging import LABELS, Pieces, Span, decode
from graph.nlp.tagging_cutoffs import Cutoffs
from graph.tagger.cv import held_out
from graph.tagger.data import select_examples
from graph.tagger.folds import fold_of, parse_fold


def test_fold_of_is_fixed_by_the_id_alone():
    assert [fold_of(i, 3) for i in ("A00-2023", "P05-1010", "abc", "paper-7")] == [1, 2, 0, 0]
    # not the dev split's bucket: "P05-1010" has bucket 0.0098, "abc" 0.728
    assert {fold_of(f"id{n}", 3) for n in range(50)} == {0, 1, 2}
    assert [fold_of(f"id{n}", 5) for n in range(8)] == [fold_of(f"id{n}", 5) for n in range(8)]


@pytest.mark.parametrize("spec", ["3/3", "1", "0/1", "a/3", "-1/3"])
def test_a_bad_fold_is_refused_with_its_text(spec):
    with pytest.raises(InputError, match="--fold"):
        parse_fold(spec)
    assert parse_fold(" 2/3 ") == (2, 3)


def _corpora(tmp_path):
    """A SciERC file of 12 one-sentence abstracts and 30 SciREX papers (some in the dev split)."""
    scierc = tmp_path / "scierc.json"
    scierc.write_text("".join(
        json.dumps({"doc_key": f"S{n}", "sentences": [["We", "use", "CRF", "."]],
                    "ner": [[[2 + 4 * 0, 2, "Method"]]]}) + "\n" for n in range(12)))
    scirex = tmp_path / "scirex"
    scirex.mkdir()
    for n in range(30):
        words = ["A", "title", "We", "use", "MNIST", "."]
        (scirex / f"p{n}.json").write_text(json.dumps({
            "doc_id": f"p{n}", "words": words, "sentences": [[0, 2], [2, 6]],
            "sections": [[0, 2], [2, 6]], "ner": [[4, 5, "Material"]],
        }))
    return scierc, scirex


def test_folds_cover_the_train_documents_once_and_never_a_dev_paper(tmp_path):
    scierc, scirex = _corpora(tmp_path)
    folds = [held_out(i, 3, scierc, scirex) for i in range(3)]
    ids = [(d["corpus"], d["id"]) for fold in folds for d in fold]
    dev = {f"p{n}" for n in range(30) if is_dev(f"p{n}", SCIREX_DEV_SHARE)}
    assert dev and len(ids) == len(set(ids)) == 12 + 30 - len(dev)
    assert not dev & {i for c, i in ids if c == "scirex"}
    assert all(fold_of(d["id"], 3) == i for i, fold in enumerate(folds) for d in fold)
    # gold spans are character offsets into the text the evaluation reads
    d = next(d for d in folds[0] + folds[1] + folds[2] if d["corpus"] == "scirex")
    assert [d["text"][s:e] for s, e, _ in d["gold"]] == ["MNIST"]


def test_a_fold_run_trains_on_the_other_folds_only(tmp_path):
    scierc, scirex = _corpora(tmp_path)
    every = select_examples(scierc, scirex)
    for i in range(3):
        train = {ex.source for ex in select_examples(scierc, scirex, fold=(i, 3))}
        held = {d["id"] for d in held_out(i, 3, scierc, scirex)}
        assert train and not train & held
        assert train | held == {ex.source for ex in every}


TEXT = "We train Llama-2-7B (a decoder) on WikiText-103 for summarisation."


def _pieces() -> Pieces:
    # five words, one wordpiece each but "Wiki" + "Text-103": offsets into TEXT
    offsets = [(0, 2), (3, 8), (9, 19), (35, 39), (39, 47), (52, 65)]
    return Pieces(list(range(6)), offsets, [0, 1, 2, 3, 3, 4])


def _probs(rows: dict[int, dict[str, float]]) -> np.ndarray:
    probs = np.zeros((6, len(LABELS)), dtype=np.float32)
    for i in range(6):
        row = rows.get(i, {"O": 1.0})
        for label, p in row.items():
            probs[i, LABELS.index(label)] = p
    return probs


def test_span_confidence_is_the_mean_and_least_probability_of_its_type():
    probs = _probs({
        2: {"B-method": 0.5, "I-method": 0.3, "O": 0.2},
        3: {"B-dataset": 0.6, "I-dataset": 0.1, "O": 0.3},
        4: {"I-dataset": 0.9, "B-dataset": 0.05, "O": 0.05},
        5: {"B-task": 0.4, "O": 0.35, "B-method": 0.25},
    })
    spans = decode(probs, _pieces())
    assert [(TEXT[s.start:s.end], s.type) for s in spans] == [
        ("Llama-2-7B", "method"), ("WikiText-103", "dataset"), ("summarisation", "task")]
    # B- and I- of the type count together: 0.8; (0.7 + 0.95) / 2; 0.4
    assert [round(s.confidence, 4) for s in spans] == [0.8, 0.825, 0.4]
    assert [round(s.floor, 4) for s in spans] == [0.8, 0.7, 0.4]
    assert [s.score("min") for s in spans] == [s.floor for s in spans]


def _cand(start, end, etype):
    return Candidate(type=etype, start=start, end=end, text=TEXT[start:end], confidence=0.8,
                     sources=("chunk",))


SPANS = [Span(9, 19, "method", 0.55, 0.5), Span(21, 30, "method", 0.45, 0.3),
         Span(35, 47, "dataset", 0.7, 0.2), Span(52, 65, "task", 0.3, 0.3)]


@pytest.mark.parametrize(("cut", "rescue", "kept"), [
    (Cutoffs(), "none", ["Llama-2-7B", "a decoder", "WikiText-103", "summarisation"]),
    (Cutoffs("mean", {"method": 0.5, "dataset": 0.6, "task": 0.35}), "none",
     ["Llama-2-7B", "WikiText-103"]),
    (Cutoffs("min", {"method": 0.5, "dataset": 0.6, "task": 0.35}), "none", ["Llama-2-7B"]),
    # a model candidate overlapping "a decoder" keeps it; the task candidate on exactly
    # "summarisation" keeps it only when the mode is same-span or overlap
    (Cutoffs("mean", {"method": 0.5, "dataset": 0.6, "task": 0.35}, "overlap"), "overlap",
     ["Llama-2-7B", "a decoder", "WikiText-103", "summarisation"]),
    (Cutoffs("mean", {"method": 0.5, "dataset": 0.6, "task": 0.35}, "same-span"), "same-span",
     ["Llama-2-7B", "WikiText-103", "summarisation"]),
])
def test_cutoffs_keep_and_drop_exact_spans(cut, rescue, kept):
    rules = [(23, 30, "model"), (52, 65, "task"), (35, 47, "method")]
    assert [TEXT[s.start:s.end] for s in SPANS if cut.keeps(s, rules)] == kept
    assert cut.rescue == rescue


def test_mentions_v2_drops_spans_under_their_cutoff_and_lets_a_lexicon_hit_in():
    cands = (_cand(23, 30, "model"), _cand(52, 65, "task"),
             Candidate(type="dataset", start=35, end=47, text="WikiText-103", confidence=0.9,
                       sources=("lexicon",)))
    cut = Cutoffs("mean", {"method": 0.5, "dataset": 0.8, "task": 0.35})
    got = mentions.combine(TEXT, SPANS, cands, cutoffs=cut)
    # "a decoder" (0.45) and "summarisation" (0.3) dropped; WikiText-103 (0.7 < 0.8) dropped
    # as a tagged span but found again by the lexicon candidate
    assert [(m.text, m.type, m.confidence) for m in got] == [
        ("Llama-2-7B", "method", 0.55), ("WikiText-103", "dataset", 0.9)]


def test_the_cutoffs_file_is_read_and_checked(tmp_path):
    path = tmp_path / "t.json"
    path.write_text(json.dumps({"cutoffs": {"measure": "min", "by_type": {"task": 0.4},
                                            "rescue": "overlap"}, "command": "x"}))
    assert cutoff_file.load(path) == Cutoffs("min", {"task": 0.4}, "overlap", ("metric",))
    path.write_text(json.dumps({"cutoffs": {"measure": "mean", "by_type": {"metric": 0.8},
                                            "rescue": "none", "rule_types": []}}))
    assert cutoff_file.load(path) == Cutoffs("mean", {"metric": 0.8}, "none", ())
    path.write_text(json.dumps({"cutoffs": {"measure": "mean", "by_type": {},
                                            "rule_types": ["claim"]}}))
    with pytest.raises(InputError, match=r"unknown span type\(s\) claim"):
        cutoff_file.load(path)
    path.write_text(json.dumps({"cutoffs": {"measure": "median", "by_type": {}}}))
    with pytest.raises(InputError, match=r"t\.json: measure must be one of mean, min"):
        cutoff_file.load(path)
    path.write_text(json.dumps({"cutoffs": {"measure": "mean", "by_type": {"tool": 0.4}}}))
    with pytest.raises(InputError, match="unknown span type"):
        cutoff_file.load(path)
    with pytest.raises(InputError, match="cutoffs are missing"):
        cutoff_file.load(tmp_path / "none.json")


def test_the_shipped_cutoffs_parse():
    shipped = cutoff_file.load()
    assert set(shipped.by_type) <= {"method", "dataset", "task", "metric"}
    assert all(0.0 <= v < 1.0 for v in shipped.by_type.values())


def test_missed_names_are_sorted_by_why_they_were_missed():
    from graph.eval.scores import PaperDiff
    from graph.tagger.oof_names import name_errors, report

    diffs = [
        PaperDiff(id="p1",
                  missed={"task": ["Training", "widget sorting", "gadget ranking", "cog folding"],
                          "method": ["sprocket net"]},
                  spurious={"task": ["widget sorting problem", "Sprocket Net"],
                            "method": ["gadget-ranking"]}),
        PaperDiff(id="p2", missed={"task": ["cog folding"]}, spurious={"dataset": ["CogSet"]}),
    ]
    errors = name_errors(diffs)
    # "Training" opens a sentence: the generic word "training", kept out of the graph
    assert dict(errors["task"].kinds) == {"generic": 1, "boundary": 1, "type": 1, "not found": 2}
    # a spurious name of another type only counts when its words are the same
    assert dict(errors["method"].kinds) == {"type": 1}
    assert errors["task"].missed["cog folding"] == 2
    assert errors["dataset"].spurious == {"CogSet": 1}
    text = report({"toy": errors}, top=1)
    assert "| toy | task | 5 | 1 | 1 | 1 | 2 |" in text
    assert "- toy task, missed: cog folding 2" in text


def test_a_soup_is_the_mean_of_the_runs_weights():
    from graph.tagger.soup import mean_state

    a = {"w": np.array([[1.0, 3.0]], dtype=np.float32), "position_ids": np.array([0, 1])}
    b = {"w": np.array([[3.0, 4.0]], dtype=np.float32), "position_ids": np.array([0, 1])}
    mean = mean_state([a, b], ["a", "b"])
    assert mean["w"].tolist() == [[2.0, 3.5]] and mean["w"].dtype == np.float32
    assert mean["position_ids"].tolist() == [0, 1]
    with pytest.raises(ValueError, match="b is not the same network as a"):
        wider = {"w": np.zeros((1, 3), dtype=np.float32), "position_ids": a["position_ids"]}
        mean_state([a, wider], ["a", "b"])
    with pytest.raises(ValueError, match="position_ids differs"):
        mean_state([a, {**b, "position_ids": np.array([1, 0])}], ["a", "b"])
    with pytest.raises(ValueError, match="at least two"):
        mean_state([a], ["a"])


def test_the_fold_runs_are_described_with_every_second_stage_and_the_soup(tmp_path):
    from graph.tagger.thresholds import fold_runs

    def stage(name: str, epochs: int, seed: int, body: int) -> None:
        (tmp_path / "fold0" / name).mkdir(parents=True)
        args = {"epochs": str(epochs), "scirex_abstracts": str(body > 0), "seed": str(seed),
                "body_tokens": str(body), "threads": "2"}
        (tmp_path / "fold0" / name / "train.json").write_text(json.dumps({"args": args}))

    stage("stage1", 8, 13, 0)
    stage("stage2", 2, 13, 480)
    stage("stage2-seed14", 2, 14, 480)
    (tmp_path / "fold0" / "soup").mkdir()
    (tmp_path / "fold0" / "soup" / "soup.json").write_text("{}")
    assert fold_runs(tmp_path, 1) == [
        "fold 0/1: stage1: 8 epoch(s), scirex False, body tokens 0, seed 13, threads 2; "
        "stage2: 2 epoch(s), scirex True, body tokens 480, seed 13, threads 2; "
        "stage2-seed14: 2 epoch(s), scirex True, body tokens 480, seed 14, threads 2; "
        "weights: the mean of the second stages"]
