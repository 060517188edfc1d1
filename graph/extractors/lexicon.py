"""Lexicons of well-known names (data/lexicons/{type}s.txt) and a PhraseMatcher over them.

A lexicon line is `preferred name | alias | alias`; a line starting with `#` is a comment.
Every form is matched as written (case-sensitive), and forms of six or more characters, or of
several words, also case-insensitively: "Penn Treebank" and "penn treebank" are one dataset,
while "RACE" (a reading-comprehension set) must not match the word "race".
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import spacy
from spacy.matcher import PhraseMatcher
from spacy.tokens import Doc, Span
from spacy.vocab import Vocab

from graph.errors import InputError
from graph.extractors.tokens import table
from graph.generic import phrase_tokens
from graph.name_forms import singular
from graph.paths import LEXICONS

LEXICON_DIR = LEXICONS
#: lexicon file stem per entity type
FILES: dict[str, str] = {
    "dataset": "datasets",
    "model": "models",
    "method": "methods",
    "task": "tasks",
    "metric": "metrics",
}
# Forms this long (or with a space) are distinctive enough to match in any case.
CASELESS_MIN_LEN = 6


@dataclass(frozen=True)
class LexiconHit:
    span: Span
    type: str
    #: the preferred name of the lexicon entry the form belongs to
    name: str


def parse_lexicon(path: Path) -> list[tuple[str, tuple[str, ...]]]:
    """(preferred name, aliases) per entry; a malformed line raises InputError naming it."""
    entries: list[tuple[str, tuple[str, ...]]] = []
    for lineno, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        forms = [f.strip() for f in line.split("|")]
        if any(not f for f in forms):
            raise InputError(f"{path}:{lineno}: empty name in lexicon line {raw!r}")
        entries.append((forms[0], tuple(forms[1:])))
    return entries


@cache
def entries(etype: str, directory: Path = LEXICON_DIR) -> tuple[tuple[str, tuple[str, ...]], ...]:
    return tuple(parse_lexicon(directory / f"{FILES[etype]}.txt"))


@cache
def forms(etype: str, directory: Path = LEXICON_DIR) -> dict[str, str]:
    """Every form of every entry -> its preferred name."""
    table: dict[str, str] = {}
    for name, aliases in entries(etype, directory):
        for form in (name, *aliases):
            table.setdefault(form, name)
    return table


@cache
def caseless_forms(etype: str, directory: Path = LEXICON_DIR) -> dict[str, str]:
    """Lowercased distinctive forms -> preferred name."""
    return {
        f.lower(): name
        for f, name in forms(etype, directory).items()
        if len(f) >= CASELESS_MIN_LEN or " " in f
    }


def lookup(text: str, etype: str) -> str | None:
    """The preferred name of `text` in the `etype` lexicon, or None."""
    return forms(etype).get(text) or caseless_forms(etype).get(text.lower())


def is_entry_of(entry: str, long: str, etype: str) -> bool:
    """Whether `entry`, a name of the `etype` lexicon, is the name `long` (the lexicon's own
    name for it, or its words compared case-, separator- and plural-blind): what a short form
    the abstract defines may still mean. After "Expectation Maximization (EM)", "EM" is not the
    metrics lexicon's "exact match"; after "Word Error Rates (WER)", it is "word error rate"."""
    return _name_key(entry) == _name_key(lookup(long, etype) or long)


def _name_key(name: str) -> str:
    # words alone (quotes and brackets gone), each singular: "Word Error Rates" = "word error rate"
    return " ".join(singular(w) for w in phrase_tokens(name))


@cache
def families(etype: str) -> frozenset[str]:
    """Lowercased single-token forms, for recognising sized variants (BERT-large, GPT-4o-mini)."""
    return frozenset(f.lower() for f in forms(etype) if " " not in f)


class _Matchers:
    """One pair of PhraseMatchers per Vocab: patterns must hash into the Doc's own strings."""

    def __init__(self) -> None:
        self._by_vocab: dict[int, tuple[Vocab, PhraseMatcher, PhraseMatcher]] = {}

    def get(self, vocab: Vocab) -> tuple[PhraseMatcher, PhraseMatcher]:
        hit = self._by_vocab.get(id(vocab))
        if hit is not None and hit[0] is vocab:
            return hit[1], hit[2]
        # The patterns are tokenised with the English rules the pipelines themselves use.
        tokenizer = spacy.blank("en", vocab=vocab).tokenizer
        exact = PhraseMatcher(vocab, attr="ORTH")
        caseless = PhraseMatcher(vocab, attr="LOWER")
        for etype in FILES:
            exact.add(etype, [tokenizer(f) for f in forms(etype)])
            caseless.add(etype, [tokenizer(f) for f in caseless_forms(etype)])
        if len(self._by_vocab) > 8:
            self._by_vocab.clear()
        self._by_vocab[id(vocab)] = (vocab, exact, caseless)
        return exact, caseless


_MATCHERS = _Matchers()


def find(doc: Doc) -> Iterator[LexiconHit]:
    """Lexicon hits in `doc`, every type, possibly overlapping."""
    exact, caseless = _MATCHERS.get(doc.vocab)
    tokens = table(doc)
    strings = doc.vocab.strings
    seen: set[tuple[int, int, str]] = set()
    for matcher in (exact, caseless):
        for match_id, start, end in matcher(doc):
            etype = strings[match_id]
            if (start, end, etype) in seen:
                continue
            seen.add((start, end, etype))
            text = tokens.span_text(start, end)
            name = lookup(text, etype)
            if name is None:
                # tokenisation joined the form differently (whitespace); keep the surface
                name = text
            yield LexiconHit(doc[start:end], etype, name)
