"""Claims against sentence roles, the numbers gold, the one table and `paperkg eval --corpus`."""

from __future__ import annotations

import gzip
import json
from decimal import Decimal
from pathlib import Path

import pytest
from click.testing import CliRunner

from graph import eval as ev
from graph.cli import cli
from graph.errors import InputError, PaperkgError
from graph.eval import claims_score, gold_results
from graph.eval.corpora import CORPORA, check_errors_allowed
from graph.eval.run import CorpusResult, Row
from graph.eval.table import format_table, to_json
from graph.model import Mention, Paper, PaperExtraction, Result

SENTENCES = [
    ("Parsers are slow.", "background", 1.0),
    ("Old work is old.", "background", 0.9),
    ("We make a fast one.", "objective", 0.8),
    ("It is 3x faster.", "result", 0.9),
    ("It is also small.", "result", 0.6),  # below the confidence bar: not in the recall
    ("Errors drop by half.", "result", 0.75),
]


def _paper() -> ev.GoldPaper:
    spans, pos = [], 0
    for text, label, conf in SENTENCES:
        spans.append({"start": pos, "end": pos + len(text), "label": label, "conf": conf})
        pos += len(text) + 1
    rec = {"id": "c1", "abstract": " ".join(t for t, _, _ in SENTENCES), "entities": {},
           "sentences": spans}
    return ev.gold_papers([rec], "test")[0]


def _claim(paper: ev.GoldPaper, text: str, **kw) -> Mention:
    start = paper.abstract.index(text)
    return Mention(type="claim", text=text, start=start, end=start + len(text), extractor="t",
                   confidence=1.0, **kw)


def test_claims_result_recall_background_and_precision():
    paper = _paper()
    claims = [_claim(paper, "Old work is old."), _claim(paper, "We make a fast one."),
              _claim(paper, "It is 3x faster."), _claim(paper, "It is also small.")]
    ext = PaperExtraction(paper=Paper(key="c1", abstract=paper.abstract), mentions=claims)
    acc = claims_score.score([paper], [ext])
    # results with conf >= 0.7: "3x faster" taken, "drop by half" missed
    assert (acc.results, acc.results_taken) == (2, 1)
    assert (acc.background, acc.background_taken) == (2, 1)
    # precision: objective and the two results are claims' sentences, the background is not
    assert (acc.claims, acc.claims_right) == (4, 3)
    assert acc.errors == [("c1", ["Errors drop by half."], ["Old work is old."])]


def test_a_claim_spanning_two_sentences_takes_both_only_by_half():
    paper = _paper()
    # a claim mention over the objective and a bit of the first result sentence
    start = paper.abstract.index("We make")
    claim = Mention(type="claim", text="", start=start, end=start + 22, extractor="t",
                    confidence=1.0)
    acc = claims_score.SentenceClaims()
    claims_score.score_paper(acc, paper, [claim])
    assert acc.results_taken == 0 and acc.claims_right == 1


ABSTRACT = "We test on 8 tasks. Our model reaches 91.5% accuracy on SQuAD, 2x faster than BERT."


def _results_gold(tmp_path: Path, abstract: str = ABSTRACT) -> Path:
    shared = tmp_path / "shared"
    (shared / "paperlists").mkdir(parents=True)
    with gzip.open(shared / "paperlists" / "abstracts.jsonl.gz", "wt", encoding="utf-8") as h:
        h.write(json.dumps({"id": "p1", "venue": "ACL", "year": 2021, "title": "T",
                            "abstract": abstract}) + "\n")
    quantities = [
        {"start": 11, "end": 12, "text": "8", "result": False},
        {"start": 38, "end": 43, "text": "91.5%", "result": True, "unit": "%",
         "metric": "accuracy", "dataset": "SQuAD"},
        {"start": 63, "end": 65, "text": "2x", "result": True, "unit": "×", "metric": None},
    ]
    gold = {"papers": [{"id": "p1", "sha256": gold_results.text_hash(ABSTRACT),
                        "quantities": quantities}]}
    path = tmp_path / "results.json"
    path.write_text(json.dumps(gold), encoding="utf-8")
    return path


def _result(text: str, unit: str | None, metric: str | None = None) -> Result:
    start = ABSTRACT.index(text)
    return Result(value=Decimal(1), text=text, start=start, end=start + len(text), unit=unit,
                  metric=metric)


def test_numbers_with_unit_with_metric_and_counts(tmp_path: Path):
    papers = gold_results.load(_results_gold(tmp_path), tmp_path / "shared")
    claim = Mention(type="claim", text="", start=0, end=len(ABSTRACT), extractor="t",
                    confidence=1.0,
                    results=(_result("8", None), _result("91.5%", "%", "Accuracy"),
                             _result("2x", "x")))
    ext = PaperExtraction(paper=Paper(key="p1", abstract=ABSTRACT), mentions=[claim])
    acc = gold_results.score(papers, [ext])
    assert (acc.quantities, acc.with_unit) == (2, 2)  # "x" is the unit "×"
    assert (acc.named_metric, acc.with_metric) == (1, 1)
    assert (acc.counts, acc.counts_taken) == (1, 1)
    wrong = Mention(type="claim", text="", start=0, end=len(ABSTRACT), extractor="t",
                    confidence=1.0, results=(_result("91.5%", None, "F1"),))
    acc = gold_results.score(papers, [PaperExtraction(paper=ext.paper, mentions=[wrong])])
    assert (acc.with_unit, acc.named_metric, acc.counts_taken) == (0, 0, 0)


def test_numbers_gold_refuses_a_changed_abstract(tmp_path: Path):
    path = _results_gold(tmp_path, abstract=ABSTRACT.replace("SQuAD", "SQuAD 2.0"))
    with pytest.raises(InputError, match=r"papers\[0\] \(p1\): the paper lists abstract differs"):
        gold_results.load(path, tmp_path / "shared")


def test_errors_are_refused_on_dev_and_on_the_held_out_numbers():
    check_errors_allowed(CORPORA["scierc"], "train")
    with pytest.raises(PaperkgError, match="refused on the scierc dev split.*honest"):
        check_errors_allowed(CORPORA["scierc"], "dev")
    with pytest.raises(PaperkgError, match="results dev"):
        check_errors_allowed(CORPORA["results"], "dev")


@pytest.mark.parametrize("args", [
    ["--corpus", "scierc", "--errors"],
    ["--all", "--errors"],
    ["--corpus", "results", "--split", "train"],
    ["--corpus", "csabstruct", "--gold", str(Path(__file__).parent / "gold" / "dev.json")],
    ["--gold", str(Path(__file__).parent / "gold" / "scirex-dev.json"), "--json"],
])
def test_cli_refuses_with_exit_2_before_extracting(args):
    out = CliRunner().invoke(cli, ["eval", *args])
    assert out.exit_code == 2, out.output
    assert out.output.startswith("paperkg: error:") or "Error:" in out.output
    assert len(out.output.strip().splitlines()) == 1


def test_cli_names_a_missing_shared_folder(tmp_path: Path):
    out = CliRunner().invoke(cli, ["eval", "--corpus", "aaai", "--shared", str(tmp_path)])
    assert out.exit_code == 2
    assert "paper lists file not found" in out.output


def _results() -> list[CorpusResult]:
    method = Row("scierc", "dev", "method", 196, 0.748, 0.469, 0.577,
                 targets={"f1": ">= 0.70", "precision": ">= 0.75"}, met=False)
    bg = Row("csabstruct", "dev", "background taken", 681, value=0.095,
             targets={"value": "<= 0.10"}, met=True)
    counts = Row("results", "dev", "counts taken", 15, value=0.5)
    return [CorpusResult("scierc", "dev", 50, [method]),
            CorpusResult("csabstruct", "dev", 295, [bg]),
            CorpusResult("results", "dev", 40, [counts], not_run=["claims"])]


def test_table_has_one_line_per_row_with_targets():
    lines = format_table(_results()).splitlines()
    assert lines[0].split() == ["corpus", "split", "row", "n", "P", "R", "F1", "share", "target",
                                "result"]
    assert lines[2].split() == ["scierc", "dev", "method", "196", "0.748", "0.469", "0.577", "-",
                                "F1", ">=", "0.70,", "P", ">=", "0.75", "MISS"]
    assert lines[3].split() == ["csabstruct", "dev", "background", "taken", "681", "-", "-", "-",
                                "0.095", "<=", "0.10", "pass"]
    assert lines[4].split() == ["results", "dev", "counts", "taken", "15", "-", "-", "-", "0.500",
                                "-"]
    assert lines[-2:] == ["papers: scierc 50, csabstruct 295, results 40",
                          "not run (module missing): claims"]


def test_table_json_rounds_and_keeps_every_row():
    data = json.loads(to_json(_results()))
    assert [d["corpus"] for d in data] == ["scierc", "csabstruct", "results"]
    assert data[0]["rows"][0]["f1"] == 0.577 and data[0]["rows"][0]["met"] is False
    assert data[1]["rows"][0]["value"] == 0.095


def test_cli_scores_a_train_slice_and_lists_its_errors():
    # ten abstracts: the tagger has seen these, and on three it can make no error at all
    out = CliRunner().invoke(cli, ["eval", "--corpus", "scierc", "--split", "train", "--limit",
                                   "10", "--errors"])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    rows = [line.split()[:3] for line in lines[2:6]]
    assert rows == [["scierc", "train", t] for t in ("method", "dataset", "task", "metric")]
    assert "papers: scierc 10" in lines
    errors = [line.split("\t") for line in lines if "\t" in line]
    assert errors and all(e[0].startswith("scierc:") and len(e) == 3 for e in errors)
    assert {e[1].split()[1] for e in errors} <= {"missed", "spurious"}
