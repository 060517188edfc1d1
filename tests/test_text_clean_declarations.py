"""graph.nlp.text_clean: old-style font declarations ("{\\em new}") read as their words."""

from __future__ import annotations

from graph.model import Mention
from graph.nlp.text_clean import readable, to_verbatim

ABSTRACT = ("This establishes the tradeoff for a {\\em natural supervised learning problem}, "
            "{\\it e.g.} {\\bf ranking}.")


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
