"""One name, one type within an abstract.

The tagger types each occurrence of a name from its own context, so one abstract could link
"GEC" ("Grammatical Error Correction (GEC)") to a method, a metric and a task in different
sentences: three nodes for one name. Annotators give a name
one type per abstract (in SciERC train 4 names of 2,671 have two, in the SciREX train split 10
of 3,358), so the mentions of a name here take the type most of their confidence votes for.
Mentions are the same name when they share a form — label, text or alias — compared case-,
separator- and plural-blind (`graph.generic.phrase_key`): "GEC" joins the long form whose alias
it is. A type a lexicon or the name's head word gives ("the OCID-Ref dataset") is not
outvoted by the tagger's guesses at the bare name. A method's name less its class word is no
form of it here ("GEC models" are models for the task GEC), and where the abstract names a
thing of another type so, no longer its alias either.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from dataclasses import replace

from graph.generic import phrase_key
from graph.model import ENTITY_TYPES, Mention


def _class_word_bare(m: Mention, class_words: Collection[str]) -> str | None:
    """The name before the class word of a method or model written with one last ("GEC" of
    "GEC models"), else None."""
    words = m.text.split()
    if m.type in ("method", "model") and len(words) > 1 and words[-1] in class_words:
        return " ".join(words[:-1])
    return None


def _forms(m: Mention, class_words: Collection[str]) -> set[str]:
    bare = _class_word_bare(m, class_words)
    keys = {phrase_key(f) for f in (m.label, m.text, *m.aliases) if f and f != bare}
    keys.discard("")
    return keys


def _groups(mentions: list[Mention], class_words: Collection[str]) -> list[list[int]]:
    """Indices of the entity mentions, grouped by the forms they share (transitively)."""
    parent: dict[int, int] = {}

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[str, int] = {}
    for i, m in enumerate(mentions):
        if m.type not in ENTITY_TYPES:
            continue
        parent[i] = i
        for key in _forms(m, class_words):
            if key in owner:
                parent[root(i)] = root(owner[key])
            else:
                owner[key] = i
    groups: dict[int, list[int]] = defaultdict(list)
    for i in parent:
        groups[root(i)].append(i)
    return list(groups.values())


def one_type_per_name(mentions: list[Mention], firm: Collection[int] = (),
                      class_words: Collection[str] = ()) -> list[Mention]:
    """The mentions, each name's mentions retyped to the type with the most summed confidence
    among them (a tie goes to the type of the first of them in the text). Where some of a
    name's mentions are `firm` (indices: their type comes from a lexicon or from the name's
    head word, "OCID-Ref dataset"), only those vote. A method or model written with one of
    `class_words` last does not join the name before it."""
    out = list(mentions)
    for group in _groups(mentions, class_words):
        types = {mentions[i].type for i in group}
        if len(types) < 2:
            continue
        voters = [i for i in group if i in firm] or group
        votes: dict[str, float] = defaultdict(float)
        for i in voters:
            votes[mentions[i].type] += mentions[i].confidence
        first = min(voters, key=lambda i: (mentions[i].start, mentions[i].end))
        best = max(votes, key=lambda t: (votes[t], t == mentions[first].type))
        for i in group:
            if out[i].type != best:
                out[i] = replace(out[i], type=best)
    return _without_other_names(out, class_words)


def _without_other_names(mentions: list[Mention], class_words: Collection[str]) -> list[Mention]:
    """The mentions, a method's name less its class word no longer its alias where the
    abstract names a thing of another type so ("GEC" of "GEC models" beside the task GEC):
    the graph joins names through aliases, and the models would become the task."""
    types: dict[str, set[str]] = defaultdict(set)
    for m in mentions:
        if m.type in ENTITY_TYPES:
            for key in _forms(m, class_words):
                types[key].add(m.type)
    out = []
    for m in mentions:
        bare = _class_word_bare(m, class_words)
        if bare is not None and bare in m.aliases and types.get(phrase_key(bare), set()) - {m.type}:
            m = replace(m, aliases=tuple(a for a in m.aliases if a != bare))
        out.append(m)
    return out
