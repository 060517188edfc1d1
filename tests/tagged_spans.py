"""Tagged spans written by the words they cover, for tests of what mentions.v2 makes of them."""

from __future__ import annotations

from graph.nlp.tagging import Span


def span_of(text: str, name: str, etype: str, confidence: float = 0.9) -> Span:
    """The tagged span of the first occurrence of `name` in `text`."""
    start = text.index(name)
    return Span(start, start + len(name), etype, confidence, confidence)
