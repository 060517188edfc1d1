"""The shapes of entity phrases in a token table: a noun phrase trimmed to the name in it,
hyphenated words, coordinations, the noun chunks the parser splits at a hyphen, and names glued
together without spaces ("ViT-B/16")."""

from __future__ import annotations

import re

from spacy.tokens import Doc, Span

from graph.extractors import classify
from graph.extractors.tokens import Tokens, table

NAMING_VERBS = frozenset("call name dub term coin denote".split())

_TRIM_DEPS = frozenset({"det", "poss", "predet", "nummod"})
_TRIM_POS = frozenset({"PRON", "DET", "PUNCT", "ADV", "CCONJ", "ADP", "PART"})
_TRIM_TAIL_POS = frozenset({"PUNCT", "PART"})
_TRIM_TAIL_TEXT = frozenset({"-", "'s"})
#: the adverb of a hyphenated praise word ("well-established", "widely-adopted"): trimmed whole
_PRAISING_ADVERBS = frozenset({"well", "recently", "newly", "previously", "widely", "commonly"})
#: a model's size, which says how big, not what: "a 7B-parameter", "8x7B-sized"
_SIZE_COUNT = re.compile(r"^(?:\d+x)?\d+(?:\.\d+)?[BMKT]$")
#: adverbs of degree, time and standing: trimmed even where they modify a word of the phrase
#: ("very deep networks", "a recently proposed method"), unlike adverbs of manner that are part
#: of a method's name ("fully connected layers", "weakly supervised detection")
_DEGREE_ADVERBS = _PRAISING_ADVERBS | frozenset(
    "very more most much highly significantly relatively extremely considerably particularly "
    "substantially comparably far so only too quite rather less least best better even just "
    "still already also increasingly remarkably surprisingly notably dramatically greatly "
    "slightly fairly generally originally traditionally typically usually often simply easily "
    "freely truly really potentially readily currently concurrently carefully consistently "
    "possibly publicly always never almost nearly successfully efficiently effectively "
    "properly jointly first purely entirely completely totally largely mostly partly "
    "heavily".split()
)


def trim(span: Span) -> Span:
    """Drop determiners, pronouns, counts and evaluative words in front, punctuation at the end."""
    start, end = trim_tokens(table(span.doc), span.start, span.end)
    return span.doc[start:end]


def _hyphen_word_end(t: Tokens, k: int, end: int) -> int:
    """End of the word joined by hyphens that starts at token k ("end-to-end", "one-dimensional",
    "state-of-the-art"): k + 1 where token k is followed by a space or no hyphen."""
    j = k
    while j + 2 < end and not t.ws[j] and t.text[j + 1] == "-" and not t.ws[j + 1]:
        j += 2
    return j + 1


def trim_tokens(t: Tokens, start: int, end: int) -> tuple[int, int]:
    dep, pos, lower, like_num = t.dep, t.pos, t.lower, t.like_num
    evaluative = classify.EVALUATIVE
    while start < end:
        word_end = _hyphen_word_end(t, start, end)
        if word_end > start + 1:
            # a hyphenated word is trimmed whole ("state-of-the-art") or kept whole: the "one"
            # of "one-dimensional" is no count
            if not (t.span_text(start, word_end).lower() in evaluative
                    or lower[start] in _PRAISING_ADVERBS  # "well-established", "newly-proposed"
                    or _SIZE_COUNT.match(t.text[start])  # "7B-parameter language modeling"
                    or t.lemma[word_end - 1] in NAMING_VERBS):  # "so-called"
                break
            start = word_end
        elif _manner_adverb(t, start, end):
            break
        elif (
            dep[start] in _TRIM_DEPS
            or pos[start] in _TRIM_POS
            or lower[start] in evaluative
            or (like_num[start] and pos[start] == "NUM")
            or t.text[start] == "%"  # "94% hit rate" once the number is gone
            # "so-called Augmented Autoencoder", "dubbed X": the name is what follows
            or (t.lemma[start] in NAMING_VERBS and pos[start] == "VERB")
        ):
            start += 1
        else:
            break
    while end > start and (pos[end - 1] in _TRIM_TAIL_POS or t.text[end - 1] in _TRIM_TAIL_TEXT):
        end -= 1
    return start, end


def count_words(t: Tokens, start: int, end: int) -> int:
    """Words in tokens start..end, a hyphenated word counting once ("short-term" is one)."""
    glue = sum(1 for k in range(start + 1, end - 1)
               if t.text[k] == "-" and not t.ws[k - 1] and not t.ws[k])
    return end - start - 2 * glue


#: words that join the conjuncts of a coordinated phrase ("&" is left alone: "Wide & Deep",
#: "CNN & Daily Mail" are names)
_CONJUNCTIONS = frozenset({"and", "or"})


def conjuncts(t: Tokens, start: int, end: int) -> list[tuple[int, int]]:
    """The noun phrases joined by "and"/"or" (and commas before them) in tokens start..end,
    trimmed; none unless the phrase is such a coordination. A conjunct that is no noun phrase
    ("exact" of "exact and efficient sampling") is left out."""
    cuts = [k for k in range(start + 1, end - 1) if t.lower[k] in _CONJUNCTIONS
            and t.pos[k] == "CCONJ"]
    if not cuts:
        return []
    cuts = [k for k in range(start + 1, cuts[-1]) if t.text[k] == ","] + cuts
    out = []
    for a, b in zip([start - 1, *cuts], [*cuts, end], strict=True):
        part = trim_tokens(t, a + 1, b)
        if part[0] < part[1] and t.pos[part[1] - 1] in ("NOUN", "PROPN"):
            out.append(part)
    return out


def _manner_adverb(t: Tokens, k: int, end: int) -> bool:
    """Token k is an adverb of manner modifying a modifier further in the phrase: "fully" of
    "fully connected layers", "biologically" of "biologically inspired filters"."""
    if t.pos[k] != "ADV" or t.tag[k] != "RB" or t.lower[k] in _DEGREE_ADVERBS:
        return False
    head = t.head[k]
    return k < head < end - 1 and t.dep[head] == "amod" and t.pos[head] in ("ADJ", "VERB")


def whole_chunks(t: Tokens, doc: Doc) -> list[tuple[int, int]]:
    """The noun chunks, where one that is the tail of a hyphenated word (the "end" of "an
    end-to-end neural network", parsed as the object of "to") stands for the phrase around it,
    which spaCy's iterator skips once the tail has taken its tokens."""
    chunks = t.noun_chunks(doc)
    out: list[tuple[int, int]] = []
    for start, end in chunks:
        if start > 1 and t.text[start - 1] == "-" and not t.ws[start - 2] and not t.ws[start - 1]:
            k, steps = end - 1, 0
            while t.head[k] != k and t.head[k] < end and steps < _MAX_HYPHEN_PARTS:
                k, steps = t.head[k], steps + 1
            noun = t.head[k]
            if noun >= end and t.pos[noun] in ("NOUN", "PROPN"):
                start, end = t.left_edge(doc, noun), noun + 1
        if not out or out[-1] != (start, end):
            out.append((start, end))
    return out


#: how far up the parse a hyphenated word's tail may climb to the noun it modifies
_MAX_HYPHEN_PARTS = 8


_GLUE = {"-", "/", "."}


_CLITICS = frozenset({"'s", "n't", "s"})


def glued_names(t: Tokens) -> list[tuple[int, int]]:
    """Runs of tokens written without spaces that make one coined name: "ViT-B/16", "Llama-2-7B"."""
    spans: list[tuple[int, int]] = []
    n = t.n
    text, ws, lower, is_punct, sent_start = t.text, t.ws, t.lower, t.is_punct, t.is_sent_start
    # a token that can be part of a glued name
    part = [
        a or num or w in _GLUE or any(map(str.isdigit, w))
        for a, num, w in zip(t.is_alpha, t.like_num, text, strict=True)
    ]
    i = 0
    while i < n:
        j = i + 1
        while (
            j < n
            and ws[j - 1] == ""
            and not sent_start[j]
            and part[j]
            and part[j - 1]
            and lower[j] not in _CLITICS
        ):
            j += 1
        while j > i + 1 and text[j - 1] in _GLUE:
            j -= 1
        word = text[i] if j == i + 1 else t.span_text(i, j)
        if classify.is_name_shaped(word) and not all(is_punct[i:j]):
            spans.append((i, j))
        i = j
    return spans


def is_pair(t: Tokens, start: int, end: int) -> bool:
    """Two or more capitalised words joined by hyphens, slashes or "to": "English-German"."""
    words = [t.text[k] for k in range(start, end) if t.text[k] not in _GLUE and t.lower[k] != "to"]
    return len(words) >= 2 and all(w.isalpha() and w.istitle() for w in words)
