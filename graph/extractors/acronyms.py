"""Acronym definitions in an abstract: "long form (ACR)" and "ACR (long form)".

The long form is found as Schwartz & Hearst (2003) describe it: walk the short form's letters
right to left through the words before the parenthesis, the first letter opening a word, and
take the shortest stretch that spells it. Tokens and sentences are spaCy's.
"""

from __future__ import annotations

from dataclasses import dataclass

from spacy.tokens import Doc, Span

from graph.extractors.tokens import table

MAX_SHORT_CHARS = 12
# A long form has at most min(|A| + 5, 2|A|) words (Schwartz & Hearst).
EXTRA_WORDS = 5
_STOP_LEADS = {
    "a", "an", "the", "our", "its", "their", "this", "these", "that", "of", "and", "or", "with",
    "by", "for", "to", "in", "on",
}


@dataclass(frozen=True)
class AcronymPair:
    long: Span
    short: Span


def looks_like_short_form(text: str) -> bool:
    """Two to twelve characters, no space, starts with a letter or digit, has a capital."""
    if not (2 <= len(text) <= MAX_SHORT_CHARS) or " " in text:
        return False
    if not text[0].isalnum() or not any(c.isalpha() for c in text):
        return False
    if text.isupper():
        return True
    # "CNNs", "ViT", "mAP" yes; "Adam", "Table" no
    return any(c.isupper() for c in text) and not text.istitle()


def best_long_form(short: str, long: str) -> int | None:
    """Character offset in `long` where the long form of `short` starts, or None."""
    plural = short.endswith("s") and short[:-1].isupper() and len(short) > 2
    letters = short[:-1] if plural else short
    s = len(letters) - 1
    i = len(long) - 1
    while s >= 0:
        c = letters[s].lower()
        if not c.isalnum():
            s -= 1
            continue
        # the first letter of the short form must open a word of the long form
        while i >= 0 and (long[i].lower() != c or (s == 0 and i > 0 and long[i - 1].isalnum())):
            i -= 1
        if i < 0:
            return None
        i -= 1
        s -= 1
    return long.rfind(" ", 0, i + 1) + 1


def _short_span(doc: Doc, open_i: int) -> Span | None:
    """The tokens between "(" at open_i and its ")", when they look like a short form."""
    t = table(doc)
    for close in range(open_i + 2, min(open_i + 5, t.n)):
        if t.text[close] == ")":
            if looks_like_short_form(t.span_text(open_i + 1, close)):
                return doc[open_i + 1 : close]
            return None
        if t.is_sent_start[close] or t.text[close] == "(":
            return None
    return None


_BREAKS = frozenset({"(", ")", ",", ";", ":", "."})


def _long_before(doc: Doc, short: Span, paren: int) -> Span | None:
    """The long form written before the "(" at token `paren`, or None."""
    t = table(doc)
    short_text = t.span_text(short.start, short.end)
    n_letters = sum(c.isalnum() for c in short_text)
    max_words = min(n_letters + EXTRA_WORDS, 2 * n_letters)
    sent_start = t.sent_first[paren]
    first = paren
    words = 0
    while first > sent_start and words < max_words:
        prev = first - 1
        if t.text[prev] in _BREAKS:
            break
        first -= 1
        if not t.is_punct[prev]:
            words += 1
    if first == paren:
        return None
    offset = best_long_form(short_text, t.span_text(first, paren))
    if offset is None:
        return None
    long = doc.char_span(t.idx[first] + offset, t.end_char(paren - 1), alignment_mode="expand")
    if long is None:
        return None
    start, end = long.start, long.end
    while end - start > 1 and t.lower[start] in _STOP_LEADS:
        start += 1
    long_text = t.span_text(start, end)
    if long_text == short_text or end - start < 2 and len(long_text) <= len(short_text):
        return None
    return long if start == long.start else doc[start:end]


def find_pairs(doc: Doc) -> list[AcronymPair]:
    pairs: list[AcronymPair] = []
    t = table(doc)
    text = t.text
    for i in range(1, t.n):
        if text[i] != "(":
            continue
        short = _short_span(doc, i)
        if short is not None:
            long = _long_before(doc, short, i)
            if long is not None:
                pairs.append(AcronymPair(long=long, short=short))
                continue
        # "ACR (long form)": the short form stands before the parenthesis
        before = text[i - 1]
        if looks_like_short_form(before):
            for close in range(i + 2, min(i + 12, t.n)):
                if text[close] == ")":
                    offset = best_long_form(before, t.span_text(i + 1, close))
                    if offset == 0 and close - i - 1 >= 2:
                        pairs.append(AcronymPair(long=doc[i + 1 : close], short=doc[i - 1 : i]))
                    break
                if t.is_sent_start[close]:
                    break
    return pairs
