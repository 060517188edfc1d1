"""A tagged span that ends in an adjective made with a hyphen ("learning-based") stopped before
the noun it modifies: it names nothing."""

from __future__ import annotations

import pytest

from graph.extractors import mentions
from graph.name_forms import ends_as_adjective
from graph.nlp.tagging_cutoffs import Cutoffs
from tests.tagged_spans import span_of

CUTOFFS = Cutoffs(by_type={"method": 0.5, "task": 0.5}, rescue="same-span")


@pytest.mark.parametrize("name, adjective", [
    ("learning-based", True),
    ("Deep learning-based", True),
    ("UVOS-driven", True),
    ("sentence-level", True),
    ("LLM\u2011based", True),  # a non-breaking hyphen
    ("state-of-the-art", False),
    ("model-free reinforcement learning", False),
    ("Context-Aware", False),  # capitalised: a title-case name's own word
    ("BERT", False),
    ("", False),
])
def test_ends_as_adjective(name, adjective):
    assert ends_as_adjective(name) is adjective


def test_a_tagged_span_ending_in_a_hyphenated_adjective_is_dropped():
    text = "Deep learning-based methods beat model-free reinforcement learning on navigation."
    spans = [span_of(text, "Deep learning-based", "method"),
             span_of(text, "model-free reinforcement learning", "method"),
             span_of(text, "navigation", "task")]
    got = mentions.combine(text, spans, (), cutoffs=CUTOFFS)
    assert [(m.text, m.type) for m in got] == [
        ("model-free reinforcement learning", "method"), ("navigation", "task")]
