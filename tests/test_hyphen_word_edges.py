"""A tagged span that starts or stops at a dash inside a word takes in the whole word
(graph.nlp.spans.tidy): the wordpiece pre-tokenizer cuts "genre-specific" in three."""

from __future__ import annotations

from graph.nlp.tagging import Span, tidy


def _tidied(text: str, tagged: str, etype: str = "task") -> list[str]:
    start = text.index(tagged)
    return [text[s.start:s.end]
            for s in tidy(text, [Span(start, start + len(tagged), etype, 0.9, 0.9)])]


def test_a_span_that_starts_after_a_dash_inside_a_word_takes_the_whole_word():
    text = "We learn genre-specific regularities for part-of-speech tagging."
    assert _tidied(text, "specific regularities") == ["genre-specific regularities"]
    assert _tidied(text, "of-speech tagging") == ["part-of-speech tagging"]


def test_a_span_that_stops_before_a_dash_inside_a_word_takes_the_whole_word():
    text = "We train ResNet-50 and a self-attention layer."
    assert _tidied(text, "ResNet", "method") == ["ResNet-50"]
    assert _tidied(text, "self", "method") == ["self-attention"]


def test_a_name_before_a_hyphenated_adjective_ending_keeps_its_edges():
    # "BERT-based" modifies what follows it: the name is "BERT"
    text = "BERT-based rankers and GPT-driven agents fail."
    assert _tidied(text, "BERT", "method") == ["BERT"]
    assert _tidied(text, "GPT", "method") == ["GPT"]


def test_dashes_between_words_are_no_word_inside():
    text = "We study parsing - and tagging \u2013 of speech."
    assert _tidied(text, "parsing") == ["parsing"]
    assert _tidied(text, "tagging") == ["tagging"]
