"""Acronym definitions in an abstract: "long form (ACR)" and "ACR (long form)".

The long form is found as Schwartz & Hearst (2003) describe it: walk the short form's letters
right to left through the words before the parenthesis, the first letter opening a word, and
take the shortest stretch that spells it. Tokens and sentences are spaCy's.
"""

from __future__ import annotations

from dataclasses import dataclass

from spacy.tokens import Doc, Span, Token

MAX_SHORT_CHARS = 12
# A long form has at most min(|A| + 5, 2|A|) words (Schwartz & Hearst).
EXTRA_WORDS = 5
_STOP_LEADS = {"a", "an", "the", "our", "its", "their", "this", "these", "that", "of", "and", "or", "with", "by", "for", "to", "in", "on"}


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
    letters = short[:-1] if short.endswith("s") and short[:-1].isupper() and len(short) > 2 else short
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
    for close in range(open_i + 2, min(open_i + 5, len(doc))):
        if doc[close].text == ")":
            inner = doc[open_i + 1 : close]
            return inner if looks_like_short_form(inner.text) else None
        if doc[close].is_sent_start or doc[close].text == "(":
            return None
    return None


def _long_before(doc: Doc, short: Span, paren: Token) -> Span | None:
    n_letters = sum(c.isalnum() for c in short.text)
    max_words = min(n_letters + EXTRA_WORDS, 2 * n_letters)
    sent_start = paren.sent.start
    first = paren.i
    words = 0
    while first > sent_start and words < max_words:
        prev = doc[first - 1]
        if prev.text in {"(", ")", ",", ";", ":", "."}:
            break
        first -= 1
        if not prev.is_punct:
            words += 1
    if first == paren.i:
        return None
    window = doc[first : paren.i]
    offset = best_long_form(short.text, window.text)
    if offset is None:
        return None
    long = doc.char_span(window.start_char + offset, window.end_char, alignment_mode="expand")
    if long is None:
        return None
    while len(long) > 1 and long[0].lower_ in _STOP_LEADS:
        long = long[1:]
    if long.text == short.text or len(long) < 2 and len(long.text) <= len(short.text):
        return None
    return long


def find_pairs(doc: Doc) -> list[AcronymPair]:
    pairs: list[AcronymPair] = []
    for tok in doc:
        if tok.text != "(" or tok.i == 0:
            continue
        short = _short_span(doc, tok.i)
        if short is not None:
            long = _long_before(doc, short, tok)
            if long is not None:
                pairs.append(AcronymPair(long=long, short=short))
                continue
        # "ACR (long form)": the short form stands before the parenthesis
        before = doc[tok.i - 1]
        if looks_like_short_form(before.text):
            for close in range(tok.i + 2, min(tok.i + 12, len(doc))):
                if doc[close].text == ")":
                    inner = doc[tok.i + 1 : close]
                    offset = best_long_form(before.text, inner.text)
                    if offset == 0 and len(inner) >= 2:
                        pairs.append(AcronymPair(long=inner, short=doc[tok.i - 1 : tok.i]))
                    break
                if doc[close].is_sent_start:
                    break
    return pairs
