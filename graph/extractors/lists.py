"""Names given as a list under a word for their kind: "benchmarks including VIPeR, PRID2011
and Market1501", "datasets (MORPH Album 2, CACD-VS and FG-NET)", "the FLIC and MPII
benchmarks", "metrics such as BLEU, METEOR and CIDEr", "three tasks: word ordering, parsing
and machine translation".

The kind word types every name in the list, not only the one next to it; and a list several
of whose names are known datasets lends the kind to its unknown ones. The parser hangs such
lists in many ways (appositions of appositions, compounds, a "(" as a preposition), so the
lists are read off the words and their shapes, not the dependency tree.
"""

from __future__ import annotations

from dataclasses import dataclass

from graph.extractors import classify
from graph.extractors.tokens import Tokens

#: The kinds whose lists are typed: the words for them name a kind reliably ("datasets"),
#: unlike "methods" or "models", which a list of anything may follow.
KINDS = frozenset({"dataset", "metric", "task"})
#: Tasks are named by common nouns ("parsing", "machine translation"), the other kinds by
#: names; "tasks" and "problems" say what the list is only in the plural ("the task of X").
_TASK_WORDS = frozenset({"tasks", "problems"})
_MAX_ITEM_TOKENS = 6
#: what opens a list after the kind word: "benchmarks including", "datasets (", "metrics:"
_OPENERS = ("including", "like", "(", ":", ",")
_SUCH_AS = ("such", "as")
_GLUE = frozenset({"-", "/", ".", "’", "'", "&", "+"})
_AND = frozenset({"and", "or", "&"})


@dataclass(frozen=True)
class NameList:
    """A list of names (token spans start..end) of one kind; `anchor` says what typed it:
    "kind" (a word for the kind before or after it) or "peers" (its known names)."""

    type: str
    items: tuple[tuple[int, int], ...]
    anchor: str
    #: the kind word right after the last name ("... and MPII benchmarks"), if there is one
    kind_after: int | None = None


def _name_like(t: Tokens, k: int) -> bool:
    if t.like_num[k] and t.is_lower[k]:  # "eight": a count, not a name ("One Billion Word" is)
        return False
    pos = t.pos[k]
    if pos in ("PROPN", "NUM"):
        return True
    text = t.text[k]
    return classify.is_name_shaped(text) or (text[:1].isupper() and t.is_alpha[k])


def _phrase_word(t: Tokens, k: int) -> bool:
    """A word of a task's name: a name, or a content word that is not an evaluative one."""
    if _name_like(t, k):
        return True
    pos = t.pos[k]
    return (
        (pos in ("NOUN", "ADJ") or t.tag[k] == "VBG")
        and not t.is_stop[k]
        and t.lower[k] not in classify.EVALUATIVE
        and t.lower[k] not in _OPENERS
    )


def _part(etype: str):
    return _phrase_word if etype == "task" else _name_like


def _item_forward(t: Tokens, k: int, stop: int, part=_name_like) -> int:
    """End of the name starting at token k (k when there is none there)."""
    end = k
    while end < stop and end - k < _MAX_ITEM_TOKENS:
        if part(t, end) or (t.text[end] in _GLUE and end > k and not t.ws[end - 1]):
            end += 1
        else:
            break
    while end > k and t.text[end - 1] in _GLUE:
        end -= 1
    return end


def _item_backward(t: Tokens, k: int, first: int, part=_name_like) -> int:
    """Start of the name ending at token k - 1 (k when there is none there)."""
    start = k
    while start > first and k - start < _MAX_ITEM_TOKENS:
        prev = start - 1
        if part(t, prev) or (t.text[prev] in _GLUE and start < k and not t.ws[prev]):
            start = prev
        else:
            break
    while start < k and t.text[start] in _GLUE:
        start += 1
    return start


def _separator(t: Tokens, k: int, stop: int) -> tuple[int, bool] | None:
    """Length of the separator at token k ("," ", and" "and" "or") and whether it closes the
    list (the name after "and" is the last)."""
    if k >= stop:
        return None
    if t.lower[k] in _AND:
        return 1, True
    if t.text[k] == ",":
        if k + 1 < stop and t.lower[k + 1] in _AND:
            return 2, True
        return 1, False
    return None


def _forward(t: Tokens, k: int, stop: int, part=_name_like) -> list[tuple[int, int]]:
    """The names listed from token k on: "A, B and C"; those of "(A, B, C)" too."""
    items: list[tuple[int, int]] = []
    last = False
    while True:
        if k < stop and t.lower[k] == "the":  # "..., and the One Billion Word Benchmark"
            k += 1
        end = _item_forward(t, k, stop, part)
        if end == k:
            return []
        items.append((k, end))
        if last:
            return items
        sep = _separator(t, end, stop)
        if sep is None:
            # a list closes on its "and", or on the parenthesis it was opened with
            closed = end < stop and t.text[end] == ")"
            return items if closed and len(items) > 1 else []
        k, last = end + sep[0], sep[1]


def _backward(t: Tokens, k: int, first: int, part=_name_like) -> list[tuple[int, int]]:
    """The names listed just before token k: the "A, B and C" of "A, B and C datasets"."""
    items: list[tuple[int, int]] = []
    seen_and = False
    end = k
    while True:
        start = _item_backward(t, end, first, part)
        if start == end:
            break
        items.append((start, end))
        k = start - 1
        if k < first:
            break
        if t.lower[k] in _AND:
            # the first separator read, the one before the last name, must be the "and"
            if seen_and:
                break
            seen_and = True
            end = k - 1 if k - 1 >= first and t.text[k - 1] == "," else k
        elif t.text[k] == "," and seen_and:
            end = k
        else:
            break
    if not seen_and or len(items) < 2:
        return []
    start = items[-1][0]
    if start - 2 >= first and t.pos[start - 1] == "ADP" and _name_like(t, start - 2):
        # "Animals with Attributes and CUB datasets": the first name goes on before the "with"
        items.pop()
    return items[::-1] if len(items) > 1 else []


def _is_name(t: Tokens, start: int, end: int, modifier: bool) -> bool:
    # "2012" of "VOC 2007 and 2012", "2D and 3D": an edition or a shape, not a name
    if sum(c.isalpha() for c in t.span_text(start, end)) < 2:
        return False
    return not modifier or t.pos[end - 1] in ("NOUN", "PROPN") or t.tag[end - 1] == "VBG"


def _names(t: Tokens, items: list[tuple[int, int]], etype: str,
           before_kind: bool = False) -> tuple[tuple[int, int], ...]:
    # "supervised and semi-supervised learning tasks": an adjective before the last task
    # shares its head noun; it is no task of its own (the last one may be a mistagged noun:
    # "relatedness and entailment tasks")
    shared = etype == "task" and before_kind
    return tuple(item for n, item in enumerate(items)
                 if _is_name(t, *item, shared and n < len(items) - 1))


#: word -> the kind it is a word for: "benchmarks" (dataset), "accuracy" (metric), "tasks";
#: not "segmentation", which names a task rather than saying what a list is
_KIND_OF: dict[str, str] = {
    **{word: etype for word, (etype, strength) in classify.HEADS.items()
       if etype in KINDS and etype != "task" and strength >= 0.8},
    **dict.fromkeys(_TASK_WORDS, "task"),
}


def _kind(t: Tokens, k: int, opens_list: bool = False) -> str | None:
    """The type token k is a word for ("benchmarks" -> dataset), if it is one of KINDS;
    `opens_list`: a list opens right after it ("benchmarks like A")."""
    # the word's own entry in classify.HEADS first, its lemma's only where it has none
    etype = _KIND_OF.get(t.lower[k])
    if etype is None and t.lower[k] not in classify.HEADS:
        etype = _KIND_OF.get(t.lemma_lower[k])
    # "BLEU" is a metric's name, not the word for metrics
    if etype is None or classify.is_name_shaped(t.text[k]):
        return None
    # right after a name the word is its kind even where the tagger read a verb ("... and
    # Quixel benchmarks.")
    if t.pos[k] in ("NOUN", "PROPN") or (k > 0 and _name_like(t, k - 1)):
        return etype
    # a plural after a noun that a list follows is the kind word where the tagger read a verb:
    # "face detection benchmarks like WiderFace and MAFA"
    if opens_list and k > 0 and t.pos[k - 1] in ("NOUN", "PROPN") and t.lower[k].endswith("s"):
        return etype
    return None


def _list_start(t: Tokens, k: int, stop: int) -> int:
    """Where a list opened at token k begins ("including A", ", such as A", "(A"), or -1."""
    opened = False
    if k < stop and t.text[k] == ",":
        k, opened = k + 1, True
    if k + 1 < stop and (t.lower[k], t.lower[k + 1]) == _SUCH_AS:
        return k + 2
    if k < stop and t.lower[k] in _OPENERS and t.text[k] != ",":
        return k + 1
    return k if opened else -1


def find(t: Tokens, known: dict[tuple[int, int], str]) -> list[NameList]:
    """The lists of the doc's sentences. `known` maps the spans of lexicon names to their
    types, for lists typed by their members."""
    out: list[NameList] = []
    taken: set[tuple[int, int]] = set()
    lower, lemma = t.lower, t.lemma_lower
    for first, stop in t.sents or [(0, t.n)]:
        for k in range(first, stop):
            if lower[k] not in _KIND_OF and lemma[k] not in _KIND_OF:
                continue  # most words: no call for them
            # after the kind word: "benchmarks including A, B and C", "datasets (A, B, C)"
            nxt = _list_start(t, k + 1, stop)
            kind = _kind(t, k, opens_list=nxt > 0)
            if kind is None:
                continue
            part = _part(kind)
            items = _forward(t, nxt, stop, part) if nxt > 0 else []
            # before it: "A, B and C datasets"
            items_before = _backward(t, k, first, part)
            for found, after in ((items, None), (items_before, k)):
                if found and found[0] not in taken:
                    taken.add(found[0])
                    names = _names(t, found, kind, before_kind=after is not None)
                    if not names:
                        continue
                    if names[-1] != found[-1]:
                        after = None  # the kind word follows a dropped name
                    out.append(NameList(kind, names, "kind", after))
        out.extend(_peer_lists(t, first, stop, known, taken))
    return out


def _peer_lists(t: Tokens, first: int, stop: int, known: dict[tuple[int, int], str],
                taken: set[tuple[int, int]]) -> list[NameList]:
    """Lists of three or more names, at least two of them known and all known ones of one
    type in KINDS: "VIPeR, PRID2011, CUHK01, CUHK03 and Market1501"."""
    out: list[NameList] = []
    starts = sorted({s for s, _ in known if first <= s < stop})
    done = first
    for s in starts:
        # a list starts at a name of its own, not inside a longer one
        if s < done or (s > first and _name_like(t, s - 1)):
            continue
        items = _forward(t, s, stop)
        if len(items) < 3 or items[0] in taken:
            continue
        types = {known[i] for i in items if i in known}
        hits = sum(1 for i in items if i in known)
        if len(types) == 1 and hits >= 2 and (kind := next(iter(types))) in KINDS:
            taken.add(items[0])
            out.append(NameList(kind, _names(t, items, kind), "peers"))
        done = items[-1][1]
    return out
