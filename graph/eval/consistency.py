"""How consistently a gold set annotates its own names: `paperkg eval --gold FILE --consistency`.

A gold set drawn from annotations made for another purpose (SciREX tags mentions for
document-level relations) may tag a name in one abstract and leave it untagged in the next.
An extractor that finds a name wherever it stands is then scored as wrong on the abstracts
that left it out, however right it is. This measures that ceiling on the gold alone, no
extraction involved:

- a type's *recurring names* are the names (and aliases) the gold gives an entity of that type
  in at least `min_papers` papers;
- a recurring name *stands alone* in an abstract when it occurs there as a whole word (any
  case, plural or hyphenation: `graph.eval.matching.normalise`) and that occurrence is not part of
  a longer annotated mention ("neural network" inside "convolutional neural network");
- `annotated` counts the (abstract, name) pairs where a name stands alone and the abstract's
  gold has it as an entity of the type; `share` = annotated / pairs.

An extractor that always reports these names would have precision `share` on them.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from graph.eval.gold import GoldPaper, load_gold
from graph.eval.gold_run import evaluate
from graph.eval.matching import match_key, normalise
from graph.eval.scores import EvalReport, Score
from graph.model import ENTITY_TYPES

#: a name must be in at least this many papers' gold to count as one the gold knows
MIN_PAPERS = 2
#: shorter names ("M", "RC") are too often a letter of something else
_MIN_KEY_CHARS = 3
_SEPARATOR = r"[\W_]*"
_EDGE_BEFORE = r"(?<![\w-])"
_EDGE_AFTER = r"(?![\w-])"  # "ResNet-like" is not "ResNet" standing alone


@dataclass
class Consistency:
    names: int = 0
    pairs: int = 0
    annotated: int = 0
    #: pairs where the gold has the name, but as an entity of another type
    other_type: int = 0
    #: per name: [pairs, annotated]
    per_name: dict[str, list[int]] = field(default_factory=dict)

    @property
    def share(self) -> float:
        return self.annotated / self.pairs if self.pairs else 0.0

    def to_dict(self, top: int = 20) -> dict[str, Any]:
        frequent = sorted(self.per_name.items(), key=lambda kv: (-kv[1][0], kv[0]))[:top]
        return {
            "names": self.names,
            "pairs": self.pairs,
            "annotated": self.annotated,
            "other_type": self.other_type,
            "share": round(self.share, 4),
            "frequent": [{"name": n, "pairs": p, "annotated": a} for n, (p, a) in frequent],
        }


def _word_pattern(word: str) -> str:
    # `normalise` folded the plural; the text may still have it
    if len(word) > 3 and word.endswith("y"):
        return re.escape(word[:-1]) + "(?:y|ies)"
    return re.escape(word) + "(?:e?s)?"


def name_pattern(forms: Sequence[str]) -> re.Pattern[str]:
    """A regex finding any of `forms` (normalised names) as whole words of a text."""
    alternatives = sorted(
        {_SEPARATOR.join(_word_pattern(w) for w in form.split()) for form in forms if form},
        key=len,
        reverse=True,
    )
    return re.compile(_EDGE_BEFORE + "(?:" + "|".join(alternatives) + ")" + _EDGE_AFTER,
                      re.IGNORECASE)


def _cased(name: str) -> bool:
    return any(c.isupper() for c in name[1:])


@dataclass
class _Name:
    #: normalised written forms
    forms: set[str] = field(default_factory=set)
    #: every form has capitals inside ("mAP", "PER"): the text must have some too, or "map"
    #: and "per" would count
    cased: bool = True

    @cached_property
    def pattern(self) -> re.Pattern[str]:
        return name_pattern(sorted(self.forms))

    def occurrences(self, paper: GoldPaper) -> list[bool]:
        """For each whole-word occurrence of the name in the abstract, whether it stands alone
        (is not part of a longer annotated mention)."""
        out = []
        for hit in self.pattern.finditer(paper.abstract):
            if self.cased and not _cased(" " + hit.group()):
                continue
            start, end = hit.span()
            out.append(not any(
                s <= start and end <= e and e - s > end - start for s, e, _ in paper.mentions
            ))
        return out


def _recurring(gold: Sequence[GoldPaper], etype: str, min_papers: int) -> dict[str, _Name]:
    """match key -> its forms, for the names the gold gives `etype` in `min_papers` papers or
    more. A name written with its definition ("convolutional neural network (CNN)") is two
    names, each counted on its own, and a bare number ("2012") is no name."""
    papers: Counter[str] = Counter()
    names: dict[str, _Name] = {}
    for paper in gold:
        keys = set()
        for forms in paper.forms.get(etype, ()):
            for form in forms:
                key = match_key(form)
                if len(key) < _MIN_KEY_CHARS or "(" in form or key.isdigit():
                    continue
                keys.add(key)
                name = names.setdefault(key, _Name())
                name.forms.add(normalise(form))
                name.cased = name.cased and _cased(form)
        papers.update(keys)
    return {k: names[k] for k, n in papers.items() if n >= min_papers}


def consistency(
    gold: Sequence[GoldPaper], *, min_papers: int = MIN_PAPERS
) -> dict[str, Consistency]:
    """Per entity type with gold names, how often the gold annotates its recurring names."""
    out: dict[str, Consistency] = {}
    for etype in ENTITY_TYPES:
        recurring = _recurring(gold, etype, min_papers)
        if not recurring:
            continue
        result = Consistency(names=len(recurring))
        for paper in gold:
            own = {k for _, keys in paper.entities[etype] for k in keys}
            others = {k for t in ENTITY_TYPES if t != etype for _, keys in paper.entities[t]
                      for k in keys}
            for key, recurring_name in recurring.items():
                if not any(recurring_name.occurrences(paper)):
                    continue
                name = min(recurring_name.forms, key=lambda f: (len(f), f))
                counts = result.per_name.setdefault(name, [0, 0])
                result.pairs += 1
                counts[0] += 1
                if key in own:
                    result.annotated += 1
                    counts[1] += 1
                elif key in others:
                    result.other_type += 1
        out[etype] = result
    return out


def format_consistency(results: dict[str, Consistency], *, min_papers: int = MIN_PAPERS) -> str:
    lines = [
        f"names the gold gives a type in {min_papers}+ papers, where they stand alone in an "
        "abstract:",
        f"{'type':<10}{'names':>7}{'pairs':>11}{'annotated':>11}{'share':>8}{'other type':>12}",
    ]
    for etype, r in results.items():
        lines.append(f"{etype:<10}{r.names:>7}{r.pairs:>11}{r.annotated:>11}{r.share:>8.3f}"
                     f"{r.other_type:>12}")
    return "\n".join(lines)


@dataclass
class RecurringSpurious:
    """An evaluation's false positives that are recurring gold names of their type: names the
    gold gives that type in other abstracts and leaves out of this one."""

    score: Score
    recurring: int
    names: Counter[str] = field(default_factory=Counter)

    @property
    def precision_if_counted(self) -> float:
        n = self.score.n_pred
        return (self.score.tp + self.recurring) / n if n else 0.0

    @property
    def f1_if_counted(self) -> float:
        p, r = self.precision_if_counted, self.score.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def to_dict(self, top: int = 20) -> dict[str, Any]:
        return {
            "fp": self.score.fp,
            "recurring": self.recurring,
            "precision": round(self.score.precision, 4),
            "precision_if_counted": round(self.precision_if_counted, 4),
            "f1": round(self.score.f1, 4),
            "f1_if_counted": round(self.f1_if_counted, 4),
            "frequent": [{"name": n, "fp": c} for n, c in self.names.most_common(top)],
        }


def recurring_spurious(
    gold: Sequence[GoldPaper], report: EvalReport, *, min_papers: int = MIN_PAPERS
) -> dict[str, RecurringSpurious]:
    """Per scored entity type, how many of `report`'s false positives are recurring gold names."""
    by_id = {paper.id: paper for paper in gold}
    out: dict[str, RecurringSpurious] = {}
    for etype, score in report.entities.items():
        if etype in report.no_gold:
            continue
        recurring = _recurring(gold, etype, min_papers)
        result = RecurringSpurious(score=score, recurring=0)
        for diff in report.papers:
            paper = by_id[diff.id]
            for name in diff.spurious.get(etype, []):
                key = match_key(name)
                if key not in recurring:
                    continue
                # not where the abstract has the name only inside a longer annotated mention
                # (the label may be a known name's, not the abstract's wording)
                found = recurring[key].occurrences(paper)
                if not found or any(found):
                    result.recurring += 1
                    result.names[name] += 1
        out[etype] = result
    return out


def format_recurring_spurious(results: dict[str, RecurringSpurious]) -> str:
    lines = [
        "false positives that are such names (the gold has them in other abstracts), and the "
        "figures if they counted as found:",
        f"{'type':<10}{'fp':>6}{'recurring':>11}{'precision':>11}{'if counted':>12}{'F1':>8}"
        f"{'if counted':>12}",
    ]
    for etype, r in results.items():
        lines.append(
            f"{etype:<10}{r.score.fp:>6}{r.recurring:>11}{r.score.precision:>11.3f}"
            f"{r.precision_if_counted:>12.3f}{r.score.f1:>8.3f}{r.f1_if_counted:>12.3f}"
        )
    return "\n".join(lines)


def run_consistency(gold_path: str, *, as_json: bool = False, limit: int | None = None) -> str:
    """What `paperkg eval --consistency` prints: the gold's consistency, then the evaluation's
    false positives that it explains."""
    gold = load_gold(gold_path, limit=limit)
    consistent = consistency(gold)
    spurious = recurring_spurious(gold, evaluate(gold_path, limit=limit))
    if as_json:
        return json.dumps(
            {
                "gold": str(gold_path),
                "min_papers": MIN_PAPERS,
                "consistency": {t: r.to_dict() for t, r in consistent.items()},
                "recurring_spurious": {t: r.to_dict() for t, r in spurious.items()},
            },
            indent=2,
            ensure_ascii=False,
        )
    return format_consistency(consistent) + "\n\n" + format_recurring_spurious(spurious)
