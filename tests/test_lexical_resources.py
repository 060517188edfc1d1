"""Lexical resources and knowledge bases are datasets: the lexicon knows them, and a capitalised
one-word name it lists ("Propbank") takes its type, which the tagger, reading "built on top
of the Penn TreeBank and Propbank", guessed to be a method."""

from __future__ import annotations

import pytest

from graph.extractors import candidates, lexicon, mentions
from graph.nlp.tagging_cutoffs import Cutoffs
from tests.tagged_spans import span_of

CUTOFFS = Cutoffs(by_type={"method": 0.7, "dataset": 0.5, "task": 0.5}, rescue="same-span")
TEXT = ("The PDTB is built on top of the Penn TreeBank and Propbank, and aligned with the "
        "Princeton Wordnet and Freebase.")


@pytest.fixture(scope="module")
def nlp():
    from graph.nlp import load

    return load()


@pytest.mark.parametrize("name, preferred", [
    ("WordNet", "WordNet"), ("Princeton Wordnet", "WordNet"), ("Propbank", "PropBank"),
    ("PDTB", "Penn Discourse Treebank"), ("Canadian Hansards", "Canadian Hansards"),
    ("Freebase", "Freebase"), ("FrameNet", "FrameNet"),
])
def test_the_datasets_lexicon_lists_the_resources(name, preferred):
    assert lexicon.lookup(name, "dataset") == preferred


@pytest.mark.parametrize("name, etype", [
    ("Propbank", "dataset"), ("Freebase", "dataset"), ("Accuracy", "metric"),
    ("language modeling", None),  # a common phrase: typed as the sentence uses it
    ("Translation", None),  # in no lexicon
])
def test_a_capitalised_word_a_lexicon_lists_takes_its_type(name, etype):
    assert mentions._lexicon_type(name) == etype


def test_a_resource_the_tagger_called_a_method_is_a_dataset(nlp):
    spans = [span_of(TEXT, "Penn TreeBank", "dataset", 0.83),
             span_of(TEXT, "Propbank", "method", 0.41),  # under the method cutoff
             span_of(TEXT, "Freebase", "method", 0.8)]
    found = mentions.combine(TEXT, spans, candidates.candidates(nlp(TEXT)), cutoffs=CUTOFFS)
    assert {(m.text, m.type) for m in found
            if m.text in ("Penn TreeBank", "Propbank", "Freebase", "Princeton Wordnet")} == {
        ("Penn TreeBank", "dataset"), ("Propbank", "dataset"), ("Freebase", "dataset"),
        ("Princeton Wordnet", "dataset")}


@pytest.mark.parametrize("short, long", [
    ("GLUE", "general language understanding evaluation"),
    ("SWAG", "situations with adversarial generations"),
    ("MRPC", "Microsoft Research Paraphrase Corpus"),
])
def test_a_benchmark_defined_by_its_written_out_name_keeps_the_lexicons_type(short, long):
    # a short form the abstract defines takes a lexicon's type only where the lexicon's name
    # for it is that long form: the benchmarks' written-out names are listed with them
    assert mentions._lexicon_type(short, long) == "dataset"
    assert mentions._lexicon_type(short, "gated linear unit evaluation") is None
