"""Generic words are not entities: the criterion on a made-up table, the table maker, and a build
of real abstracts whose most-linked entities are names."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from graph.errors import InputError
from graph.generic import (
    field_keys,
    is_generic,
    is_generic_mention,
    is_setting,
    parse,
    phrase_key,
)
from graph.generic_stats import write_table
from graph.model import Mention

ROOT = Path(__file__).resolve().parent.parent
ABSTRACTS = ROOT.parent / "shared" / "data" / "paperlists" / "abstracts.jsonl.gz"

# 1,000 abstracts, 200 per venue group
TABLE = """#phrase\tdocs\tneurips\ticml\tcvpr\tacl\taaai\tnear_number\thead
#all\t1000\t200\t200\t200\t200\t200\t0\t0
training\t300\t60\t60\t60\t60\t60\t10\t250
regret\t30\t15\t15\t0\t0\t0\t3\t20
cue\t19\t4\t4\t4\t4\t3\t0\t10
neural network\t100\t20\t20\t20\t20\t20\t1\t80
machine translation\t100\t0\t0\t0\t100\t0\t1\t90
accuracy\t200\t40\t40\t40\t40\t40\t80\t190
efficiency\t200\t40\t40\t40\t40\t40\t5\t150
batch size\t10\t2\t2\t2\t2\t2\t5\t9
objective function\t25\t10\t10\t5\t0\t0\t1\t20
perplexity\t25\t5\t5\t0\t15\t0\t10\t20
gaussian\t15\t10\t5\t0\t0\t0\t0\t1
markov\t10\t5\t5\t0\t0\t0\t0\t0
pretrained\t12\t0\t0\t2\t10\t0\t0\t1
pre trained\t12\t0\t0\t2\t10\t0\t0\t1
transformer\t20\t5\t5\t0\t10\t0\t0\t12
optimization problem\t15\t4\t4\t2\t2\t3\t0\t14
image classification\t20\t4\t4\t4\t4\t4\t0\t10
real world application\t9\t2\t2\t2\t2\t1\t0\t9
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


def test_unmeasured_metric_needs_no_even_spread(table):
    # 2.5 % of the abstracts, uneven (no ACL), a number near it in 4 %: no metric
    assert table.spread("objective function") < 0.9
    assert is_generic("objective function", "metric", table)
    assert is_generic("objective function", "method", table) is False  # the spread rule
    # as uneven, but measured: a metric
    assert is_generic("perplexity", "metric", table) is False


def test_a_word_that_only_modifies_is_no_entity(table):
    # it ends a noun phrase in under 10 % of its abstracts: "Gaussian" (process, noise, ...)
    assert is_generic("Gaussian", "method", table)
    assert is_generic("gaussian", "method", table)
    assert is_generic("Markov", "method", table)
    assert is_generic("pretrained", "model", table)
    # a hyphenated word is a phrase of the table ("pre trained"): left to the parse
    assert is_generic("pre-trained", "model", table) is False
    # a name that often ends its phrase stays, rare or capitalised
    assert is_generic("Transformer", "model", table) is False
    assert is_generic("cue", "task", table) is False
    # the statistic is of single words: a phrase ending in one is judged as a phrase
    assert is_generic("Gaussian processes", "method", table) is False


def test_a_task_phrase_that_always_ends_its_noun_phrase_is_a_description(table):
    # 1.5 % of the abstracts (under the 3 % of a generic phrase), spread evenly, the end of
    # its noun phrase in 14 of its 15 abstracts
    assert table.share("optimization problem") == 0.015
    assert table.spread("optimization problem") >= 0.8
    assert is_generic("optimization problems", "task", table)
    assert is_generic("Optimization Problem", "task", table)  # title case is no name
    # the gold of both corpora annotates such descriptions as methods and metrics (and an
    # unmeasured metric is generic from 2 % on)
    assert is_generic("optimization problem", "method", table) is False
    assert is_generic("optimization problem", "metric", table) is False
    # as common and as even, but a modifier in half its abstracts: a name
    assert is_generic("image classification", "task", table) is False
    # closed, but in under 1 % of the abstracts
    assert is_generic("real-world applications", "task", table) is False


def test_rare_and_unknown_phrases_are_not_generic(table):
    assert is_generic("edit distance", "metric", table) is False
    assert is_generic("graph coloring", "task", table) is False
    assert is_generic("", "task", table) is False


def test_research_fields_are_no_entities(table):
    # top concepts of data/taxonomy.ttl, whatever the case, and the acronym the taxonomy gives
    assert is_generic("computer vision", "task", table)
    assert is_generic("Computer Vision", "task", table)
    assert is_generic("Natural Language Processing", "method", table)
    assert is_generic("NLP", "task", table)
    assert is_generic("Robotics", "task", table)  # a capitalised word, yet a field
    # AAAI tracks ("Multiagent Systems", "Machine Learning II" without its numbering)
    assert is_generic("multiagent systems", "task", table)
    assert is_generic("Knowledge Representation and Reasoning", "task", table)
    # narrower concepts are subfields that are tasks too, and a field inside a name is a name
    assert is_generic("object detection", "task", table) is False
    assert is_generic("machine translation", "task", table) is False
    assert is_generic("machine learning models", "method", table) is False
    assert is_generic("NLI", "task", table) is False  # an acronym, not of the field's name


def test_a_field_acronym_with_a_class_word_is_the_field(table):
    # "NLP tasks" is one node with "NLP" (graph.name_forms.bare_name): a field, no entity
    assert is_generic("NLP tasks", "task", table)
    assert is_generic("NLP model", "method", table)
    assert is_generic("BERT model", "model", table) is False
    assert is_generic("NLI task", "task", table) is False


def test_field_keys_come_from_the_taxonomy_and_the_tracks():
    keys = field_keys()
    assert {"machine learning", "computer vision", "natural language processing", "nlp", "ai",
            "hci", "speech and natural language processing", "search and optimization"} <= keys
    assert "object detection" not in keys and "deep learning" not in keys
    assert "domain of application" not in keys  # a track with no area


def test_number_with_a_unit_is_no_entity(table):
    for name in ("3D", "2D", "4K", "7B", "2.5D", "3-D"):
        assert is_generic(name, "task", table), name
    for name in ("ResNet-50", "T5", "C4", "3DMM", "BLEU-4", "20 Newsgroups"):
        assert is_generic(name, "dataset", table) is False, name


def test_a_training_setting_is_no_entity(table):
    # a hyperparameter with a number beside it ("a learning rate of 0.1") is set, not measured
    for name in ("learning rate", "Learning Rates", "adaptive learning rate", "mini-batch size",
                 "step-sizes", "hyper-parameters", "kernel hyperparameters", "number of epochs"):
        assert is_generic(name, "metric", table) and is_generic(name, "method", table), name
    # what is done with a setting, or named after one, is a method or a task
    for name in ("learning rate schedule", "hyperparameter tuning", "hyperparameter optimization",
                 "batch normalization", "accuracy", "top-1 accuracy"):
        assert not is_setting(name), name
    assert is_generic("learning rate schedule", "method", table) is False


def test_lone_modifier_needs_the_parse():
    from graph import nlp as nlp_loader
    from graph.generic import drop_generic, is_lone_modifier

    doc = nlp_loader.load()("We use pretrained models, Gaussian noise, sparse codes and a "
                            "learned CNN encoder.")

    def mention(kind, words, label=None):
        start = doc.text.index(words)
        return Mention(kind, words, start, start + len(words), "x", 0.9, label=label)

    pretrained = mention("method", "pretrained")  # VBN, amod of "models"
    learned = mention("method", "learned")
    sparse = mention("method", "sparse")  # ADJ, compound of "codes"
    gaussian = mention("method", "Gaussian")  # parsed PROPN, compound of "noise"
    whole = mention("method", "pretrained models")
    cnn = mention("model", "CNN")
    named = mention("model", "pretrained", label="BERT")  # the label names it
    assert [is_lone_modifier(m, doc) for m in (pretrained, learned, sparse)] == [True] * 3
    assert [is_lone_modifier(m, doc) for m in (gaussian, whole, cnn, named)] == [False] * 4
    # "Gaussian" goes all the same: the table says the word (nearly) never ends a noun phrase
    kept = drop_generic([pretrained, learned, sparse, gaussian, whole, cnn, named], doc)
    assert kept == [whole, cnn, named]


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
    path.write_text("#all\t1\t1\t0\t0\t0\t0\t0\t0\nword\t3\tx\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"bad\.tsv:2: bad row"):
        parse(path)
    path.write_text("word\t1\t1\t0\t0\t0\t0\t0\t0\n", encoding="utf-8")
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
    assert lines[0] == "#phrase\tdocs\tneurips\ticml\tcvpr\tacl\taaai\tnear_number\thead"
    assert lines[1] == "#all\t3\t0\t0\t2\t1\t0\t0\t0"
    # the end of a sentence or a stop word ("in", "of") follows it in every abstract
    assert "object detection\t3\t0\t0\t2\t1\t0\t1\t3" in lines
    # "object" is always followed by "detection": it only modifies
    assert "object\t3\t0\t0\t2\t1\t0\t1\t0" in lines
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
    # nor a research field, a number with a unit, a lone modifier or an unmeasured metric
    # ("computer vision", "3D", "Gaussian", "objective function"): every rule of graph.generic
    generic_top = [(kind, label) for kind, rows in ranked.items() if kind != "domain"
                   for label, _ in rows if is_generic(label, kind)]
    assert generic_top == []
    assert {phrase_key(label) for label, _ in ranked["task"]} & field_keys() == set()
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
