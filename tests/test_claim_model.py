"""The claim classifier (graph.extractors.claim_model): the shipped model on made-up sentences
with clear cues, its file format, determinism, and `paperkg train --model claims`."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from graph.cli import cli
from graph.errors import InputError
from graph.eval.train_claims import Abstract, fit, measure, train
from graph.extractors import claim_model
from graph.extractors.claim_model import ClaimModel, abstract_features, claim_score

ABSTRACT = [
    "Image segmentation has been widely studied in recent years.",
    "However, existing methods remain slow on large images.",
    "In this paper, we propose a fast segmentation network for large images.",
    "Experimental results show that our network outperforms the best previous method by "
    "4.2% in accuracy while running three times faster.",
]


@pytest.fixture(scope="module")
def model() -> ClaimModel:
    shipped = claim_model.load()
    return shipped


def test_clear_background_is_no_claim_and_clear_results_are(model):
    roles = model.classify(ABSTRACT)
    scores = [claim_score(p) for p in roles]
    assert [s >= model.threshold for s in scores] == [False, False, True, True]
    assert max(roles[0], key=roles[0].get) == "background"
    assert max(roles[3], key=roles[3].get) == "result"
    assert max(roles[2], key=roles[2].get) in {"objective", "method"}


def test_scoring_is_deterministic(model):
    assert model.classify(ABSTRACT) == model.classify(list(ABSTRACT))


def test_features_of_a_sentence_and_its_neighbours():
    first, second = abstract_features(["We propose X.", "It is 5% better than Y."])
    assert first["w:we"] == first["w:<s>_we"] > 0
    assert first["c:propose"] == 1.0 and first["first"] == 1.0 and first["pos"] == 0.0
    assert second["c:percent"] == 1.0 and second["c:than"] == 1.0 and second["last"] == 1.0
    assert second["p:propose"] == pytest.approx(0.5 / 3 ** 0.5)
    assert second["p:c:propose"] == 1.0 and first["n:c:percent"] == 1.0
    value = 1 / 6 ** 0.5
    assert abstract_features(["We propose X."], "words") == [
        dict.fromkeys(["w:we", "w:propose", "w:x", "w:<s>_we", "w:we_propose", "w:propose_x"],
                      value)
    ]


def _toy() -> list[Abstract]:
    background = "Graphs have been studied for decades."
    objective = "We propose a new graph method."
    result = "Results show our method is 5% more accurate."
    return [Abstract([background, objective, result], ["background", "objective", "result"],
                     [1.0, 1.0, 1.0], f"toy:{i}") for i in range(4)]


def test_fitting_is_deterministic_and_round_trips():
    a = fit(_toy(), threshold=0.6)
    b = fit(_toy(), threshold=0.6)
    assert a.to_json() == b.to_json()
    assert ClaimModel.from_json(json.loads(json.dumps(a.to_json()))) == a
    scores = [[claim_score(p) for p in a.classify(t.sentences)] for t in _toy()]
    figures = measure(_toy(), scores, 0.6)
    assert (figures["background_taken"], figures["precision"]) == (0.0, 1.0)
    assert figures["results"] == 4 and figures["result_recall"] == 1.0


def test_a_file_that_is_no_model_is_refused_by_name(tmp_path):
    wrong = tmp_path / "claims.json"
    wrong.write_text(json.dumps({"format": "something/else"}), encoding="utf-8")
    with pytest.raises(InputError, match=r"claims\.json: not a paperkg-claim-classifier/1"):
        claim_model.load(wrong)
    wrong.write_text("{\n  oops", encoding="utf-8")
    with pytest.raises(InputError, match=r"claims\.json: line 2: not JSON"):
        claim_model.load(wrong)


def test_train_command_refuses_a_folder_without_csabstruct(tmp_path):
    result = CliRunner().invoke(cli, ["train", "--model", "claims", "--csabstruct",
                                      str(tmp_path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert f"--csabstruct: no train.jsonl in {tmp_path}" in result.output


def test_training_writes_a_model_that_loads(tmp_path):
    folder = tmp_path / "csabstruct"
    folder.mkdir()
    lines = [json.dumps({"abstract_id": i, "sentences": t.sentences, "labels": t.labels,
                         "confs": t.confs}) for i, t in enumerate(_toy() * 2)]
    (folder / "train.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    # without the SciREX abstracts: parsing them is what takes time, not what is tested here
    printed = train(out, csabstruct_dir=folder, annotations=None, folds=2)
    assert "context: thresholds" in printed
    trained = claim_model.load(out / "claims.json")
    report = json.loads((out / "claims.report.json").read_text(encoding="utf-8"))
    assert (report["threshold"], report["rule_threshold"]) == (trained.threshold,
                                                               trained.rule_threshold)
    assert report["train"] == {"csabstruct_abstracts": 8, "scirex_abstracts": 0}
    assert report["rules_alone"]["results"] == 8


def test_bad_csabstruct_line_is_named(tmp_path):
    folder = tmp_path / "csabstruct"
    folder.mkdir()
    (folder / "train.jsonl").write_text(
        json.dumps({"sentences": ["A."], "labels": ["claim"]}) + "\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["train", "--model", "claims", "--csabstruct", str(folder),
                                      "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "train.jsonl: line 1: labels do not match sentences ('claim')" in result.output


def test_the_extractor_takes_what_the_classifier_takes(model):
    from graph import nlp as nlp_loader
    from graph.extractors import claims

    text = " ".join(ABSTRACT)
    mentions = claims.extract(nlp_loader.load()(text))
    assert [(m.text, m.claim_kind) for m in mentions] == [
        (ABSTRACT[2], "contribution"),
        (ABSTRACT[3], "empirical"),
    ]
    assert [(r.text, r.metric) for r in mentions[1].results] == [("4.2%", "accuracy"),
                                                                  ("three times", "speedup")]
    assert all(m.confidence >= model.rule_threshold for m in mentions)


@pytest.mark.parametrize(("sentence", "opens"), [
    ("We propose ScriptNet, a gated recurrent network.", True),
    ("In this paper, we introduce a new loss.", True),
    ("This paper presents a survey of parsers.", True),
    ("Here we present X.", True),
    ("Previous work has proposed many parsers.", False),
    ("We evaluate the proposed method on two sets.", False),
])
def test_a_sentence_opening_with_a_proposal(sentence, opens):
    from graph.extractors.claims import opens_with_proposal

    assert opens_with_proposal(sentence) is opens


def test_proposals_are_claims_at_any_score_only_when_the_model_says_so(model):
    import dataclasses

    from graph.extractors.claims import _learned_kind

    sentence = "We propose ScriptNet, a gated recurrent network for log parsing."
    roles = {"background": 0.7, "objective": 0.2, "method": 0.05, "result": 0.05, "other": 0.0}
    strict = dataclasses.replace(model, threshold=0.9, rule_threshold=0.9, proposals=False)
    assert _learned_kind(sentence, roles, "contribution", strict) == (None, 0.0)
    lenient = dataclasses.replace(strict, proposals=True)
    assert _learned_kind(sentence, roles, "contribution", lenient) == ("contribution", 0.3)
