"""Per-Doc columns of token attributes, read from spaCy once and shared by the extractors.

Every `doc[i]` builds a new Token object, and the extractors look at each token many times
over (as a candidate's word, its neighbour, a head, a child): plain lists read at list speed.
The columns hold exactly what the Token properties of the same name return.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy
from spacy import attrs
from spacy.lang.en.syntax_iterators import noun_chunks as english_noun_chunks
from spacy.strings import StringStore
from spacy.tokens import Doc

KEY = "paperkg.tokens.v1"
# what spaCy's English noun_chunks looks for
_NP_POS = frozenset({"NOUN", "PROPN", "PRON"})
_NP_DEPS = frozenset("oprd nsubj dobj nsubjpass pcomp pobj dative appos attr ROOT".split())


# one call to Doc.to_array reads them all
_STRING_ATTRS = (attrs.ORTH, attrs.LOWER, attrs.POS, attrs.TAG, attrs.DEP, attrs.LEMMA)
_FLAG_ATTRS = (
    attrs.IS_PUNCT, attrs.IS_ALPHA, attrs.LIKE_NUM, attrs.IS_TITLE, attrs.IS_STOP,
    attrs.IS_LOWER, attrs.IS_SPACE,
)
_ATTRS = [*_STRING_ATTRS, *_FLAG_ATTRS, attrs.SENT_START, attrs.IDX, attrs.SPACY, attrs.HEAD]
# A hash names the same string in every StringStore (symbols have fixed ids), so one table
# serves every Doc; it is emptied when it grows past this many strings.
_MAX_STRINGS = 1 << 19
_strings: dict[int, str] = {}


def _decode(col: list[int], store: StringStore) -> list[str]:
    try:
        return [_strings[h] for h in col]
    except KeyError:
        pass
    if len(_strings) > _MAX_STRINGS:
        _strings.clear()
    out = []
    for h in col:
        text = _strings.get(h)
        if text is None:
            text = _strings[h] = store[h]
        out.append(text)
    return out


class Tokens:
    __slots__ = (
        "n", "text", "ws", "lower", "pos", "tag", "dep", "head", "lemma", "lemma_lower",
        "is_punct", "is_alpha", "like_num", "is_title", "is_stop", "is_lower", "is_sent_start",
        "is_space", "idx", "doc_text", "doc_lower", "has_sents", "sent_first", "sent_end",
        "sents", "kids", "_left_edge", "_roots",
    )

    def __init__(self, doc: Doc) -> None:
        n = self.n = len(doc)
        if n:
            array = doc.to_array(_ATTRS)
            cols = array.T.tolist()
            # HEAD is an offset, stored unsigned
            heads = (array[:, -1].view(numpy.int64) + numpy.arange(n, dtype=numpy.int64)).tolist()
        else:
            cols, heads = [[] for _ in _ATTRS], []
        store = doc.vocab.strings
        self.text, self.lower, self.pos, self.tag, self.dep, self.lemma = (
            _decode(col, store) for col in cols[: len(_STRING_ATTRS)]
        )
        # flags stay 1 and 0: they are only ever tested for truth
        (
            self.is_punct, self.is_alpha, self.like_num, self.is_title, self.is_stop,
            self.is_lower, self.is_space,
        ) = cols[len(_STRING_ATTRS) : -4]
        sent_start, self.idx, spacy_ws = cols[-4:-1]
        # SENT_START is 1, -1 (stored unsigned) or 0; only 1 opens a sentence
        self.is_sent_start = [v == 1 for v in sent_start]
        self.ws = [" " if v else "" for v in spacy_ws]
        self.head = heads
        self.lemma_lower = [lemma.lower() for lemma in self.lemma]
        self.doc_text = "".join([t + w for t, w in zip(self.text, self.ws, strict=True)])
        self.doc_lower = self.doc_text.lower()
        # Token.children: the tokens whose head it is, left to right; the many tokens without
        # children share one empty tuple
        kids: list[Sequence[int]] = [()] * n
        for i, h in enumerate(self.head):
            if h != i:
                if kids[h]:
                    kids[h].append(i)  # type: ignore[union-attr]
                else:
                    kids[h] = [i]
        self.kids = kids
        self._left_edge: dict[int, int] = {}
        self._roots: dict[tuple[int, int], int] = {}
        self.has_sents = doc.has_annotation("SENT_START")
        # Doc.sents and Span.sent: a sentence opens at a token whose sent_start is 1
        self.sents: list[tuple[int, int]] = []
        self.sent_first = [0] * n
        self.sent_end = [n] * n
        if self.has_sents and n:
            starts = [i for i in range(1, n) if self.is_sent_start[i]]
            bounds = [0, *starts, n]
            for a, b in zip(bounds, bounds[1:], strict=False):
                self.sents.append((a, b))
                self.sent_first[a:b] = [a] * (b - a)
                self.sent_end[a:b] = [b] * (b - a)

    def span_text(self, start: int, end: int) -> str:
        """`doc[start:end].text`."""
        if start >= end:
            return ""
        return self.doc_text[self.idx[start] : self.idx[end - 1] + len(self.text[end - 1])]

    def start_char(self, i: int) -> int:
        return self.idx[i]

    def end_char(self, i: int) -> int:
        """End offset of token i."""
        return self.idx[i] + len(self.text[i])

    def left_edge(self, doc: Doc, i: int) -> int:
        """`doc[i].left_edge.i`: spaCy's own edge, which non-projective parses can leave
        short of the subtree's first token, so it is read rather than recomputed."""
        edge = self._left_edge.get(i)
        if edge is None:
            edge = self._left_edge[i] = doc[i].left_edge.i
        return edge


    def noun_chunks(self, doc: Doc) -> list[tuple[int, int]]:
        """(start, end) of each of `doc.noun_chunks`. The English iterator's own steps, on the
        columns: a noun (not inside the previous chunk) heading an argument, or conjoined to
        one, closes a chunk that opens at its left edge."""
        # a Doc attribute spaCy's type stubs leave out
        iterator = getattr(doc, "noun_chunks_iterator", None)
        if iterator is not english_noun_chunks or not doc.has_annotation("DEP"):
            return [(chunk.start, chunk.end) for chunk in doc.noun_chunks]
        pos, dep, head = self.pos, self.dep, self.head
        chunks: list[tuple[int, int]] = []
        prev_end = -1
        for i in range(self.n):
            if pos[i] not in _NP_POS:
                continue
            edge = self.left_edge(doc, i)
            if edge <= prev_end:
                continue
            if dep[i] in _NP_DEPS:
                prev_end = i
                chunks.append((edge, i + 1))
            elif dep[i] == "conj":
                h = head[i]
                while dep[h] == "conj" and head[h] < h:
                    h = head[h]
                if dep[h] in _NP_DEPS:
                    prev_end = i
                    chunks.append((edge, i + 1))
        return chunks

    def subtree(self, i: int) -> list[int]:
        """The tokens of `doc[i].subtree`, in no particular order."""
        out = [i]
        kids = self.kids
        for k in out:
            out.extend(kids[k])
        return out

    def root(self, start: int, end: int) -> int:
        """`doc[start:end].root.i`, by spaCy's rule: a sentence root inside the span, else
        the word fewest arcs below one (the first on a tie), punctuation and spaces without
        children counting as farthest."""
        key = (start, end)
        found = self._roots.get(key)
        if found is None:
            found = self._roots[key] = self._root(start, end)
        return found

    def _root(self, start: int, end: int) -> int:
        head = self.head
        for i in range(start, end):
            if head[i] == i:
                return i
        n = self.n
        best, root = n, -1
        for i in range(start, end):
            if start <= head[i] < end:
                continue
            if (self.is_space[i] or self.is_punct[i]) and not self.kids[i]:
                depth = n - 1
            else:
                depth, k = 0, i
                while head[k] != k:
                    k = head[k]
                    depth += 1
                    if depth >= n:
                        raise RuntimeError(f"token {i} has no path to a root")
            if depth < best:
                best, root = depth, i
        return start if root == -1 else root


def release(doc: Doc) -> None:
    """Drop the doc's columns: they are scratch for one pass of the extractors, and a Doc
    that is kept needs them no longer."""
    doc.user_data.pop(KEY, None)


def table(doc: Doc) -> Tokens:
    """The doc's columns, built on first use and kept on the Doc."""
    cached = doc.user_data.get(KEY)
    if cached is None or cached.n != len(doc):
        cached = Tokens(doc)
        doc.user_data[KEY] = cached
    return cached
