"""Matching predictions to gold: names folded to match keys, entities matched one-to-one by
name, spans matched by overlap.

Entities are matched by name, per paper: a predicted entity (its label and aliases) matches a
gold entity when one of its names equals one of the gold entity's names or aliases after
`normalise`, each gold entity matched at most once.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from graph.eval.scores import Score

_DASHES = re.compile(r"[-‐‑–—/_]")
_PUNCT = re.compile(r"[^\w\s.+#]")
# a dot is punctuation unless it sits between digits ("2.0", "0.5")
_DOT = re.compile(r"(?<!\d)\.|\.(?!\d)")


def normalise(name: str) -> str:
    """Match key of a name: case, hyphens/slashes, spaces, punctuation and plurals folded.

    "Convolutional Neural Networks" == "convolutional neural network"; "V-Net" == "V Net";
    "CNNs" == "CNN"; "FlowNet 2.0" keeps its "2.0".
    """
    s = _DASHES.sub(" ", name.lower())
    s = _PUNCT.sub(" ", s)
    s = _DOT.sub(" ", s)
    words = []
    for w in s.split():
        if len(w) > 3 and w.endswith("ies"):
            w = w[:-3] + "y"
        elif len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
            w = w[:-1]
        words.append(w)
    return " ".join(words)


def match_key(name: str) -> str:
    """`normalise` without the spaces: "CNN/DailyMail" == "CNN / Daily Mail", "VNet" == "V-Net"."""
    return normalise(name).replace(" ", "")


def name_keys(names: Iterable[str]) -> frozenset[str]:
    return frozenset(k for k in (match_key(n) for n in names) if k)


def max_matching(
    n_left: int, n_right: int, edges: Callable[[int], Iterable[int]]
) -> dict[int, int]:
    """Maximum bipartite matching (augmenting paths), left index -> right index.

    Deterministic: left items are tried in order, their candidates in the order given.
    """
    match_right: dict[int, int] = {}

    def augment(left: int, seen: set[int]) -> bool:
        for right in edges(left):
            if right in seen:
                continue
            seen.add(right)
            if right not in match_right or augment(match_right[right], seen):
                match_right[right] = left
                return True
        return False

    for left in range(n_left):
        augment(left, set())
    return {left: right for right, left in match_right.items()}


@dataclass
class EntityMatch:
    score: Score
    #: gold names not found / predicted names matching nothing
    missed: list[str]
    spurious: list[str]
    #: predicted names matching no gold entity but a neutral span (counted neither way)
    neutral: list[str] = field(default_factory=list)


def match_entities(
    predicted: Sequence[tuple[str, frozenset[str]]],
    gold: Sequence[tuple[str, frozenset[str]]],
    neutral: frozenset[str] = frozenset(),
) -> EntityMatch:
    """Score predicted against gold entities, each given as (display name, normalised names).

    A predicted entity that matches no gold entity but has a key in `neutral` (the names of
    spans the gold marks as neither right nor wrong) is not a false positive.
    """
    matching = max_matching(
        len(predicted),
        len(gold),
        lambda i: [j for j, (_, keys) in enumerate(gold) if keys & predicted[i][1]],
    )
    matched_gold = set(matching.values())
    unmatched = [i for i in range(len(predicted)) if i not in matching]
    neutral_hits = [i for i in unmatched if predicted[i][1] & neutral]
    fp = len(unmatched) - len(neutral_hits)
    score = Score(tp=len(matching), fp=fp, fn=len(gold) - len(matching))
    return EntityMatch(
        score=score,
        missed=[name for j, (name, _) in enumerate(gold) if j not in matched_gold],
        spurious=[predicted[i][0] for i in unmatched if i not in neutral_hits],
        neutral=[predicted[i][0] for i in neutral_hits],
    )


def group_names(named: Iterable[tuple[str, Iterable[str]]]) -> list[tuple[str, frozenset[str]]]:
    """Merge (label, aliases) records that share a normalised name into one entity each.

    An abstract names the same thing several times; each mention must not count as an entity.
    The first label seen names the group.
    """
    groups: list[tuple[str, set[str]]] = []
    for label, aliases in named:
        keys = set(name_keys([label, *aliases]))
        if not keys:
            continue
        hits = [g for g in groups if g[1] & keys]
        if not hits:
            groups.append((label, keys))
            continue
        first = hits[0]
        first[1].update(keys)
        for other in hits[1:]:
            first[1].update(other[1])
            groups.remove(other)
    return [(label, frozenset(keys)) for label, keys in groups]


def spans_match(a: tuple[int, int], b: tuple[int, int], share: float = 0.5) -> bool:
    """Two spans overlap by at least `share` of the shorter one."""
    overlap = min(a[1], b[1]) - max(a[0], b[0])
    shorter = min(a[1] - a[0], b[1] - b[0])
    return overlap > 0 and shorter > 0 and overlap >= share * shorter
