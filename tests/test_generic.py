"""Generic words are not entities: the criterion on a made-up table, the table maker, and a build
of real abstracts whose most-linked entities are names."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from graph.errors import InputError
from graph.generic import is_generic, is_generic_mention, parse, phrase_key
from graph.generic_stats import write_table
from graph.model import Mention

ROOT = Path(__file__).resolve().parent.parent
ABSTRACTS = ROOT.parent / "shared" / "data" / "paperlists" / "abstracts.jsonl.gz"

# 1,000 abstracts, 200 per venue group
TABLE = """#phrase\tdocs\tneurips\ticml\tcvpr\tacl\taaai\tnear_number
#all\t1000\t200\t200\t200\t200\t200\t0
training\t300\t60\t60\t60\t60\t60\t10
regret\t30\t15\t15\t0\t0\t0\t3
cue\t19\t4\t4\t4\t4\t3\t0
neural network\t100\t20\t20\t20\t20\t20\t1
machine translation\t100\t0\t0\t0\t100\t0\t1
accuracy\t200\t40\t40\t40\t40\t40\t80
efficiency\t200\t40\t40\t40\t40\t40\t5
batch size\t10\t2\t2\t2\t2\t2\t5
"""


@pytest.fixture()
def table(tmp_path):
    path = tmp_path / "generic.tsv"
    path.write_text(TABLE, encoding="utf-8")
    return parse(path)


def test_common_single_word_is_generic(table):
    assert table.share("training") == 0.3
    assert is_generic("training", "task", table)
    assert is_generic("Training", "task", table) is False  # a capitalised word is a name


def test_rare_single_word_is_not(table):
    assert table.share("cue") == 0.019
    assert is_generic("cue", "task", table) is False
    assert is_generic("regret", "task", table)  # 3 % of the abstracts



def test_even_phrase_is_generic_and_field_phrase_is_not(table):
    assert table.spread("neural network") == pytest.approx(1.0)
    assert is_generic("neural networks", "method", table)
    assert is_generic("Neural Networks", "method", table)  # title case is no name
    assert is_generic("neural NETworks", "method", table) is False
    assert table.spread("machine translation") == pytest.approx(0.0)
    assert is_generic("machine translation", "task", table) is False


def test_measured_metric_is_spared(table):
    assert is_generic("accuracy", "metric", table) is False
    assert is_generic("regret", "metric", table) is False  # a number near it in 10 %
    assert is_generic("accuracy", "task", table)
    assert is_generic("efficiency", "metric", table)


def test_rare_and_unknown_phrases_are_not_generic(table):
    assert is_generic("batch size", "metric", table) is False
    assert is_generic("graph coloring", "task", table) is False
    assert is_generic("", "task", table) is False


def test_phrase_key_folds_case_separators_and_plural():
    assert phrase_key("Neural-Networks") == "neural network"
    assert phrase_key("  state-of-the-art   methods ") == "state of the art method"


def test_mention_check_uses_label_and_ignores_non_entities():
    generic = Mention(type="task", text="training", start=0, end=8, extractor="x",
                      confidence=0.9)
    named = Mention(type="method", text="the model", start=0, end=9, extractor="x",
                    confidence=0.9, label="GPT-2")
    domain = Mention(type="domain", text="training", start=0, end=8, extractor="x",
                     confidence=0.9, label="machine-learning")
    assert is_generic_mention(generic)
    assert not is_generic_mention(named)
    assert not is_generic_mention(domain)


def test_bad_table_names_file_and_line(tmp_path):
    path = tmp_path / "bad.tsv"
    path.write_text("#all\t1\t1\t0\t0\t0\t0\t0\nword\t3\tx\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"bad\.tsv:2: bad row"):
        parse(path)
    path.write_text("word\t1\t1\t0\t0\t0\t0\t0\n", encoding="utf-8")
    with pytest.raises(InputError, match="no #all row"):
        parse(path)


def test_table_maker_counts_documents_per_group(tmp_path, monkeypatch):
    import graph.generic_stats as maker

    monkeypatch.setattr(maker, "MIN_DOCS", 2)
    records = [
        {"id": "a", "venue": "CVPR",
         "abstract": "Object detection gets 45.2 AP. Object detection."},
        {"id": "b", "venue": "CVPR", "abstract": "We study object detection in video."},
        {"id": "c", "venue": "NAACL", "abstract": "Object detection of text? No: parsing."},
        {"id": "d", "venue": "Elsewhere", "abstract": "Object detection everywhere."},
    ]
    source = tmp_path / "abstracts.jsonl.gz"
    with gzip.open(source, "wt", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record) + "\n")
    out = tmp_path / "table.tsv"
    assert write_table(source, out) == 3  # object, detection, object detection
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[1] == "#all\t3\t0\t0\t2\t1\t0\t0"
    assert "object detection\t3\t0\t0\t2\t1\t0\t1" in lines
    first = out.read_bytes()
    write_table(source, out)
    assert out.read_bytes() == first


def test_bad_record_names_line(tmp_path):
    source = tmp_path / "abstracts.jsonl.gz"
    with gzip.open(source, "wt", encoding="utf-8") as handle:
        handle.write(json.dumps({"venue": "CVPR", "abstract": "x"}) + "\n{oops\n")
    with pytest.raises(InputError, match=r"abstracts\.jsonl\.gz:2: not a JSON line"):
        write_table(source, tmp_path / "out.tsv")
    with gzip.open(source, "wt", encoding="utf-8") as handle:
        handle.write(json.dumps({"venue": "CVPR"}) + "\n")
    with pytest.raises(InputError, match=r"abstracts\.jsonl\.gz: record 1: not a paper record"):
        write_table(source, tmp_path / "out.tsv")


#: the generic words seen among the most-linked entities of builds of unseen abstracts
ISSUE_WORDS = {"training", "prediction", "generalization", "inference", "learning", "complexity",
               "efficiency", "convergence", "neural networks", "neural network", "deep learning"}


@pytest.mark.skipif(not ABSTRACTS.exists(), reason=f"needs the unlabelled abstracts at {ABSTRACTS}")
def test_top_entities_of_a_real_build_are_names(tmp_path):
    from graph.build import build
    from graph.network.stats import top_entities

    sample = tmp_path / "sample.jsonl"
    with gzip.open(ABSTRACTS, "rt", encoding="utf-8") as source, sample.open("w") as out:
        rows = [json.loads(line) for line in source]
        train_venues = [r for r in rows if r["venue"] != "AAAI"]
        for record in train_venues[:: len(train_venues) // 400][:400]:
            out.write(json.dumps({k: record[k] for k in ("id", "venue", "abstract")}) + "\n")
    build([sample], out_dir=tmp_path / "exports", store=str(tmp_path / "store"))
    ranked = top_entities(str(tmp_path / "store"), 15)
    # research areas are taxonomy concepts ("Deep learning"), not entities
    labels = {label.lower() for kind, rows in ranked.items() if kind != "domain"
              for label, _ in rows}
    assert len(ranked["method"]) == 15 and len(ranked["task"]) == 15
    assert labels & ISSUE_WORDS == set()
    counts = [n for _, n in ranked["method"]]
    assert counts == sorted(counts, reverse=True) and counts[0] >= 2

    from click.testing import CliRunner

    from graph.cli import cli

    out = CliRunner().invoke(cli, ["stats", "--store", str(tmp_path / "store"), "--top", "3",
                                   "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["top"]["method"] == [list(row) for row in ranked["method"][:3]]
    assert data["counts"]["papers"] == 400


def test_pipeline_drops_generic_mentions_unless_asked_not_to():
    import spacy

    from graph.extractors.pipeline import extract_doc

    text = "Training of BERT. Transformer layers."
    found = [Mention("task", "Training", 0, 8, "x", 0.9),
             Mention("model", "BERT", 12, 16, "x", 0.9),
             Mention("model", "Transformer", 18, 29, "x", 0.9)]

    def extractor(doc):
        return list(found)

    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    # "Training" starts a sentence: its capital is the sentence's. "Transformer" starts one
    # too, and "transformer" is as common as "training" (a single word in 2 % of abstracts):
    # a sentence-initial name is judged like any other lower-case word.
    assert [m.text for m in extract_doc(nlp(text), [extractor])] == ["BERT"]
    assert [m.text for m in extract_doc(nlp(text), [extractor], drop_generic=False)] == [
        "Training", "BERT", "Transformer"]
    spacy_blank = spacy.blank("en")  # no sentences: only offset 0 starts one
    found[:] = [found[0], Mention("model", "Transformer", 12, 23, "x", 0.9)]
    assert [m.text for m in extract_doc(spacy_blank("Training of Transformer"), [extractor])
            ] == ["Transformer"]
