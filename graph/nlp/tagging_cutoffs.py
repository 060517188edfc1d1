"""Confidence cutoffs of tagged spans: which spans mentions.v2 keeps.

The cutoffs live in data/models/tagger.thresholds.json, written by graph.tagger.thresholds from
out-of-fold predictions on the train splits (never a dev split). A span is kept when its
confidence (Span.score by the file's measure) reaches its type's cutoff, or, with a rescue
mode, when a rule candidate agrees with it. The same record says which types mentions.v2 takes
from the rules instead of the tagger (`rule_types`; metrics, in records that do not say).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from graph.errors import InputError
from graph.nlp.tagging import MEASURES, TYPES, Span
from graph.paths import DATA_DIR

PATH = DATA_DIR / "models" / "tagger.thresholds.json"
#: none: the cutoff alone decides; same-span: a rule candidate on exactly the span's characters
#: keeps it; overlap: a rule candidate of the span's type (a model for a method) that overlaps it
RESCUES = ("none", "same-span", "overlap")
#: the types taken from the rules when a record does not name them (records before metrics
#: were measured both ways)
DEFAULT_RULE_TYPES: tuple[str, ...] = ("metric",)


@dataclass(frozen=True)
class Cutoffs:
    measure: str = "mean"
    by_type: Mapping[str, float] = field(default_factory=dict)
    rescue: str = "none"
    #: the types mentions.v2 takes from the rule candidates alone, not from the tagger
    rule_types: tuple[str, ...] = DEFAULT_RULE_TYPES

    def keeps(self, span: Span, rules: Sequence[tuple[int, int, str]] = ()) -> bool:
        """Whether the span stays, given the rule candidates (start, end, type) of its text."""
        if span.score(self.measure) >= self.by_type.get(span.type, 0.0):
            return True
        if self.rescue == "same-span":
            return any((s, e) == (span.start, span.end) for s, e, _ in rules)
        if self.rescue == "overlap":
            types = {span.type, "model"} if span.type == "method" else {span.type}
            return any(s < span.end and span.start < e and t in types for s, e, t in rules)
        return False

    def to_dict(self) -> dict:
        return {"measure": self.measure, "by_type": dict(sorted(self.by_type.items())),
                "rescue": self.rescue, "rule_types": sorted(self.rule_types)}


#: keeps every span (what mentions.v2 did before cutoffs)
KEEP_ALL = Cutoffs()


def parse(data: dict, where: str) -> Cutoffs:
    try:
        measure, rescue = data["measure"], data.get("rescue", "none")
        by_type = {str(t): float(v) for t, v in data["by_type"].items()}
        rule_types = tuple(str(t) for t in data.get("rule_types", DEFAULT_RULE_TYPES))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise InputError(f"{where}: not a cutoffs record ({exc!r})") from None
    if measure not in MEASURES:
        raise InputError(f"{where}: measure must be one of {', '.join(MEASURES)}, got {measure!r}")
    if rescue not in RESCUES:
        raise InputError(f"{where}: rescue must be one of {', '.join(RESCUES)}, got {rescue!r}")
    unknown = sorted((set(by_type) | set(rule_types)) - set(TYPES))
    if unknown:
        raise InputError(f"{where}: unknown span type(s) {', '.join(unknown)}")
    return Cutoffs(measure, by_type, rescue, rule_types)


def load(path: str | Path = PATH) -> Cutoffs:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(
            f"{path}: the tagger's cutoffs are missing (data/models/TAGGER.md)"
        ) from None
    except ValueError as exc:
        raise InputError(f"{path}: not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise InputError(f"{path}: not a cutoffs record")
    return parse(data.get("cutoffs", data), str(path))


@lru_cache(maxsize=1)
def shipped() -> Cutoffs:
    """The cutoffs of data/models/tagger.thresholds.json, read once per process."""
    return load(PATH)
