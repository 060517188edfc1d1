"""Tagged spans written by the words they cover, and mentions as mentions.v2 makes them, for
tests of what it makes of them."""

from __future__ import annotations

from graph.model import Mention
from graph.nlp.tagging import Span


def span_of(text: str, name: str, etype: str, confidence: float = 0.9) -> Span:
    """The tagged span of the first occurrence of `name` in `text`."""
    start = text.index(name)
    return Span(start, start + len(name), etype, confidence, confidence)


def mention(etype: str, text: str, start: int, confidence: float, label: str | None = None,
            aliases: tuple[str, ...] = ()) -> Mention:
    """A mentions.v2 mention of `text` at `start`."""
    return Mention(type=etype, text=text, start=start, end=start + len(text),
                   extractor="mentions.v2", confidence=confidence, label=label,
                   aliases=aliases)
