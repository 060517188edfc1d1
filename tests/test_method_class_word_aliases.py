"""A method's name less its class word is an alias only where it names something alone: "BERT"
of "BERT model", not "Neural" of "Neural models" or "Transformer-based" of "Transformer-based
models", through which the graph would join every such phrase that starts a sentence
(graph.extractors.mentions.without_class_word)."""

from __future__ import annotations

import pytest

from graph.extractors import mentions
from graph.model import Paper, PaperExtraction
from graph.nlp.tagging_cutoffs import Cutoffs
from graph.resolve import resolve
from tests.tagged_spans import span_of

CUTOFFS = Cutoffs(by_type={"method": 0.5, "task": 0.5, "dataset": 0.5}, rescue="same-span")


@pytest.mark.parametrize("name, etype, bare", [
    ("BERT model", "method", ("BERT",)),
    ("Bi-Directional Attention Flow network", "method", ("Bi-Directional Attention Flow",)),
    ("Neural models", "method", ()),  # a word that only modifies, capitalised by the sentence
    ("Gaussian models", "method", ()),
    ("Transformer-based models", "method", ()),  # an adjective made with a hyphen
    # a generic word capitalised by the sentence, unless a lexicon lists it as a name
    ("Language models", "method", ()),
    ("Memory networks", "method", ()),
    ("Transformer models", "method", ("Transformer",)),
    ("Diffusion models", "method", ("Diffusion",)),  # not generic by the table
    ("Caltech benchmark", "dataset", ("Caltech",)),  # datasets: "the Caltech benchmark"
])
def test_the_bare_name_of_a_method(name, etype, bare):
    assert mentions.without_class_word(name, etype) == bare


def _extraction(key: str, text: str, name: str) -> PaperExtraction:
    found = mentions.combine(text, [span_of(text, name, "method")], (), cutoffs=CUTOFFS)
    return PaperExtraction(paper=Paper(key=key, abstract=text, title=None, id=key),
                           mentions=found)


def test_phrases_that_share_a_modifier_stay_apart_in_the_graph():
    extractions = [_extraction("a", "Neural models are popular for parsing.", "Neural models"),
                   _extraction("b", "Neural networks are used for image classification.",
                               "Neural networks"),
                   _extraction("c", "BERT models are strong. We tune BERT.", "BERT models")]
    assert [m.aliases for e in extractions for m in e.mentions] == [(), (), ("BERT",)]
    entities = resolve(extractions).entities
    assert sorted((e.label, sorted(e.papers)) for e in entities.values()) == [
        ("BERT models", ["c"]), ("Neural models", ["a"]), ("Neural networks", ["b"])]
