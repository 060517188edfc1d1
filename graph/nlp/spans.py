"""Character spans of tagged mentions, and how they are tidied into names.

`Span` is what graph.nlp.tagging decodes from the model's BIO tags; `tidy` cleans their edges,
joins a name the model cut in two, puts a bracketed acronym back inside its name and cuts a
span that lists several names into them. Pure text work: no model, no parse.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from graph.name_forms import ends_as_adjective
from graph.nlp.coordination import coordinated_parts, listed_phrases


@dataclass(frozen=True, slots=True)
class Span:
    start: int
    end: int
    type: str
    #: the mean, over the span's tagged wordpieces, of the probability of its type (B- or I-)
    confidence: float
    #: the least of those probabilities
    floor: float = 1.0

    def score(self, measure: str) -> float:
        """The span's confidence by one of MEASURES."""
        return self.floor if measure == "min" else self.confidence


#: how a span's confidence is read off its wordpieces' probabilities (Span.score)
MEASURES = ("mean", "min")


_DASHES = "-\u2010\u2011\u2012\u2013\u2014"
#: characters a name never starts or ends with
_EDGE = _DASHES + " ,;:./'\"\u201c\u201d\u2018\u2019"
_STOP_AFTER = ",;:)]}!?\"\u201d\u2019"
#: words that join or introduce a name but never end one: a span the model ran on into the
#: next phrase ("parsing and", "Penn Treebank and", "automatic detection of") loses them
_JOINING = frozenset("a an the and or nor of in on for to with by from as at via".split())


def _word_start(text: str, i: int) -> int:
    while i > 0 and not text[i - 1].isspace() and text[i - 1] not in "([{\"\u201c\u2018":
        i -= 1
    return i


def _inside_word(text: str, i: int) -> bool:
    """True when text[i] is a dash between two letters or digits ("genre-specific")."""
    return (0 < i < len(text) - 1 and text[i] in _DASHES and text[i - 1].isalnum()
            and text[i + 1].isalnum())


def _word_end(text: str, i: int) -> int:
    n = len(text)
    while i < n and not text[i].isspace() and text[i] not in _STOP_AFTER:
        if text[i] == "." and (i + 1 == n or not text[i + 1].isalnum()):
            break
        i += 1
    return i


def _past_decimal_point(text: str, end: int) -> int:
    """`end`, or the end of the number when a span stops at its decimal point: the
    pre-tokenizer makes "2", "." and "0" three words, and the model may stop at the first
    ("Prague Dependency Treebank 2" of "... 2.0", "SQuAD v2" of "SQuAD v2.0")."""
    n = len(text)
    while end + 1 < n and text[end] == "." and text[end - 1].isdigit() and text[end + 1].isdigit():
        end += 1
        while end < n and text[end].isalnum():
            end += 1
    return end


def _without_joining_words(text: str, start: int, end: int) -> tuple[int, int]:
    """The span without joining words at its end, nor the "s" of a possessive or a conjunction
    at its start ("s Book" of "Google's Book", "and WSJ")."""
    while True:
        name = text[start:end]
        cut = name.rstrip(_EDGE)
        last = cut.rsplit(None, 1)
        if len(last) == 2 and last[1] in _JOINING:
            end = start + len(last[0].rstrip(_EDGE))
            continue
        first = name.split(None, 1)
        if len(first) < 2:
            return start, end
        possessive = first[0] == "s" and start >= 1 and text[start - 1] in "'\u2019"
        if possessive or first[0] in ("and", "or", "of"):
            start = end - len(first[1])
            continue
        return start, end


def joined(text: str, spans: list[Span]) -> list[Span]:
    """`spans` (in text order) with two of one type that only a space parts made one: two
    names do not stand side by side without a comma or a word between them, so the model
    began the second too early ("IWSLT 2016" "English–German"). The joined span's confidence
    is the mean of both, weighted by their lengths; its floor the lower."""
    out: list[Span] = []
    for span in spans:
        if out and out[-1].type == span.type and text[out[-1].end:span.start] == " ":
            out[-1] = _merged(out[-1], span, out[-1].type)
            continue
        out.append(span)
    return out


def _merged(first: Span, second: Span, etype: str) -> Span:
    """One span from `first` to the end of `second`, of type `etype`: its confidence the mean
    of both, weighted by their lengths; its floor the lower."""
    a, b = first.end - first.start, second.end - second.start
    return replace(first, end=second.end, type=etype,
                   confidence=(first.confidence * a + second.confidence * b) / (a + b),
                   floor=min(first.floor, second.floor))


def _closes_early(name: str) -> int:
    """Index of the first ")" in `name` that no "(" before it opens, or -1."""
    depth = 0
    for i, ch in enumerate(name):
        if ch == "(":
            depth += 1
        elif ch == ")":
            if depth == 0:
                return i
            depth -= 1
    return -1


def bracketed(text: str, spans: list[Span]) -> list[Span]:
    """`spans` (in text order) with an acronym in brackets kept inside its name.

    The model often restarts a name at the acronym of "recurrent neural network (RNN) language
    model" and tags "RNN) language model", or "(UD) dataset" after a name it did not tag. A
    span that closes a bracket it did not open, or that opens with the bracketed acronym, is
    joined to the span that ends right before the bracket (the name is the whole phrase, its
    type the later span's: the head word is there); with no such span it keeps the acronym
    alone ("UD"). A span that is the acronym and its closing bracket ("LNMF)") loses the bracket.
    """
    out: list[Span] = []
    for span in spans:
        name = text[span.start:span.end]
        close = _closes_early(name)
        lead = name.startswith("(") and 0 < name.find(")") < len(name) - 1
        if close < 0 and not lead:
            out.append(span)
            continue
        gap = text[out[-1].end:span.start] if out else ""
        if (close > 0 and name[close + 1:].strip() and gap in ("(", " (")) or (lead and gap == " "):
            out[-1] = _merged(out[-1], span, span.type)
            continue
        inner = (span.start + 1, span.start + name.find(")")) if lead else \
            (span.start, span.start + close)
        edges = _clean(text, *inner)
        if edges is not None:
            out.append(replace(span, start=edges[0], end=edges[1]))
    return out


def tidy(text: str, spans: list[Span]) -> list[Span]:
    """Spans with whole hyphenated words and clean edges; spans that name nothing dropped.

    The wordpiece pre-tokenizer splits "IMO-ProofBench" into three words, so the model can tag
    "-ProofBench" or "JiT-": a span that starts or ends on a dash inside a word grows to the
    whole word, and so does one that starts or stops at such a dash ("specific regularities" of
    "genre-specific regularities"), unless the rest of the word makes it an adjective ("BERT"
    of "BERT-based" stays); one that stops at a decimal point takes the decimals ("SQuAD v2.0").
    Dashes, commas and stray brackets at either edge are then trimmed, and so are joining
    words the model ran on into ("Penn Treebank and"); a bracket left open before a
    closing one takes it in, and a span without a letter, with fewer than two letters and
    digits ("-", "16", "5-") or of one joining word is no mention. A span that lists several
    names is first cut into them (`coordinated_parts`; not a task: "identification of
    2-character and 3-character names" is one), and a span of any type that lists whole phrases
    into those (`listed_phrases`: "machine translation and document summarization"); each part
    keeps the span's confidence. Before that, an acronym in brackets is put back inside its
    name (`bracketed`), and two spans of one type with only a space between them are one
    (`joined`).
    """
    # Each span is cleaned before two are joined, so that a joining word the model tagged
    # alone ("parsing" "and" "generation") is gone and joins nothing.
    clean = [Span(*edges, s.type, s.confidence, s.floor)
             for s in spans if (edges := _clean(text, s.start, s.end)) is not None]
    out: list[Span] = []
    for s in joined(text, bracketed(text, clean)):
        parts = ([(s.start, s.end)] if s.type == "task"
                 else coordinated_parts(text, s.start, s.end))
        if len(parts) == 1:
            parts = listed_phrases(text, s.start, s.end)
        # a span left whole is clean already (joined spans keep clean edges); a cut part is not
        for start, end in parts:
            edges = (start, end) if len(parts) == 1 else _clean(text, start, end)
            if edges is None or (out and edges[0] < out[-1].end):
                continue
            out.append(Span(edges[0], edges[1], s.type, s.confidence, s.floor))
    return out


def _clean(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The edges of one span tidied as `tidy` says, or None when it names nothing."""
    if start < end and text[start] in _DASHES and start > 0 and not text[start - 1].isspace():
        start = _word_start(text, start)
    if _inside_word(text, start - 1):
        start = _word_start(text, start)
    if start < end and _inside_word(text, end) and not ends_as_adjective(
            text[start:_word_end(text, end)]):
        end = _word_end(text, end)
    if start < end and text[end - 1] in _DASHES and end < len(text) and not text[end].isspace():
        end = _word_end(text, end)
    end = _past_decimal_point(text, end)
    while start < end and (text[start] in _EDGE or text[start] in ")]}"):
        start += 1
    while start < end and (text[end - 1] in _EDGE or text[end - 1] in "([{"):
        end -= 1
    start, end = _without_joining_words(text, start, end)
    name = text[start:end]
    if name.count("(") > name.count(")") and end < len(text) and text[end] == ")":
        end += 1
        name = text[start:end]
    if (sum(c.isalnum() for c in name) < 2 or not any(c.isalpha() for c in name)
            or name in _JOINING):
        return None
    return start, end
