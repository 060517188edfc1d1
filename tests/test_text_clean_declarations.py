"""graph.nlp.text_clean: old-style font declarations ("{\\em new}") read as their words."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graph.model import Mention
from graph.nlp.text_clean import readable, to_verbatim

ABSTRACT = ("This establishes the tradeoff for a {\\em natural supervised learning problem}, "
            "{\\it e.g.} {\\bf ranking}.")


@pytest.mark.parametrize("text, read", [
    (ABSTRACT, "This establishes the tradeoff for a natural supervised learning problem, "
               "e.g. ranking."),
    ("{\\em a {b} c} d", "a {b} c d"),
    ("{\\sl Slanted}{\\tt mono}", "Slantedmono"),
    ("{\\em\\emph{x}}", "x"),
    # not declarations: a longer command name, and a brace group without one
    ("{\\empty} and {\\itemize x}", "{\\empty} and {\\itemize x}"),
    ("{em x}", "{em x}"),
])
def test_declarations_read_as_their_words(text: str, read: str) -> None:
    assert readable(text).text == read


def test_words_of_a_declaration_map_back_with_its_markup() -> None:
    view = readable(ABSTRACT)
    for words, verbatim in [("natural supervised learning problem",
                             "{\\em natural supervised learning problem}"),
                            ("ranking", "{\\bf ranking}"), ("tradeoff", "tradeoff")]:
        start = view.text.index(words)
        begin, end = view.span(start, start + len(words))
        assert ABSTRACT[begin:end] == verbatim


def test_a_mention_in_a_declaration_keeps_its_read_name_as_label() -> None:
    view = readable(ABSTRACT)
    start = view.text.index("supervised learning problem")
    mention = Mention(type="task", text="supervised learning problem", start=start,
                      end=start + len("supervised learning problem"), extractor="t",
                      confidence=0.9)
    [back] = to_verbatim([mention], view, ABSTRACT)
    assert ABSTRACT[back.start:back.end] == "supervised learning problem}"
    assert (back.label or back.text).startswith("supervised learning problem")


_PIECES = st.sampled_from(["word", " ", "{\\em ", "{\\it", "{\\bf\n", "}", "{", "\\emph{",
                           "$x$", "\\%", "\\'e", "~", "\\"])


@settings(max_examples=200, deadline=None)
@given(st.lists(_PIECES, max_size=30).map("".join))
def test_every_read_character_maps_into_the_verbatim_text_in_order(text: str) -> None:
    view = readable(text)
    assert len(view.text) == len(view.starts) == len(view.ends)
    assert list(view.starts) == sorted(view.starts)
    for i, char in enumerate(view.text):
        start, end = view.starts[i], view.ends[i]
        assert 0 <= start < end <= len(text)
        if char != " " and end - start == 1:
            assert text[start] == char
