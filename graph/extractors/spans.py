"""A candidate span before it is typed (Draft: its tokens and the evidence gathered for it) and
after (Candidate: one type, a confidence, label, aliases and whether the paper proposes it)."""

from __future__ import annotations

from dataclasses import dataclass

from spacy.tokens import Doc, Span

from graph.extractors.tokens import Tokens
from graph.model import Mention


@dataclass(frozen=True)
class Candidate:
    type: str
    start: int
    end: int
    text: str
    confidence: float
    label: str | None = None
    aliases: tuple[str, ...] = ()
    proposed: bool = False
    #: which generators found it: "lexicon", "acronym", "acronym-use", "chunk", "name"
    sources: tuple[str, ...] = ()
    #: the evidence per type that decided it, for the learned scorer
    evidence: tuple[tuple[str, float], ...] = ()

    def mention(self, extractor: str) -> Mention:
        return Mention(
            type=self.type,
            text=self.text,
            start=self.start,
            end=self.end,
            extractor=extractor,
            confidence=round(self.confidence, 4),
            label=self.label,
            aliases=self.aliases,
            proposed=self.proposed,
        )


class Draft:
    """A candidate span, tokens start..end of doc, with its evidence, before it is typed."""

    __slots__ = (
        "doc", "tokens", "start", "end", "text", "root", "evidence", "sources", "label",
        "aliases", "surface", "lexicon_type", "partner", "_span",
    )

    def __init__(self, doc: Doc, tokens: Tokens, start: int, end: int) -> None:
        self.doc = doc
        #: the doc's token columns
        self.tokens = tokens
        self.start = start
        self.end = end
        self.text = tokens.span_text(start, end)
        #: `span.root.i`, asked for by most of the cues below
        self.root = tokens.root(start, end)
        self.evidence: dict[str, list[float]] = {}
        self.sources: set[str] = set()
        self.label: str | None = None
        self.aliases: list[str] = []
        #: the paper's longer wording of the name ("the COCO dataset"): aliases of the entity
        #: only, not evidence, unlike `aliases`, which are defined short forms
        self.surface: list[str] = []
        self.lexicon_type: str | None = None
        #: the short form written after a long form ("(GFN)"): the pair is typed together
        self.partner: Draft | None = None
        self._span: Span | None = None

    @property
    def span(self) -> Span:
        # built only when asked for: a Span costs three Tokens
        if self._span is None:
            self._span = self.doc[self.start : self.end]
        return self._span

    def add(self, evidence: dict[str, float]) -> None:
        for etype, strength in evidence.items():
            self.evidence.setdefault(etype, []).append(strength)


def combine(strengths: list[float]) -> float:
    """Noisy-or of independent pieces of evidence."""
    miss = 1.0
    for s in strengths:
        miss *= 1.0 - s
    return 1.0 - miss
