"""Name-level errors of the whole build on out-of-fold predictions (train splits only).

    python -m graph.tagger.oof_names --run-dir DIR [--folds 3] [--top 15]

Each train-split gold abstract is tagged by the fold model that held it out and run through
mentions.v2 and the other default extractors under the shipped cutoffs (as in
graph.tagger.thresholds), then scored as `paperkg eval` scores: names, not spans. Where
graph.tagger.oof_errors sorts the tagger's spans, this sorts what the graph would hold. Each
missed gold name is put in the first kind that fits:

- generic: a name graph.generic keeps out of the graph by design ("training", "computer vision");
- boundary: the paper has a spurious name of the same type that holds it or that it holds
  ("face detection problem" for "face detection");
- type: the paper has a spurious name of another type with the same words;
- not found: none of these.

Dev splits are never read.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from graph import generic
from graph.eval.matching import normalise
from graph.eval.scores import PaperDiff

#: kinds of a missed gold name, in the order they are tried
KINDS = ("generic", "boundary", "type", "not found")
TYPES = ("method", "dataset", "task", "metric")


@dataclass
class NameErrors:
    """One corpus and type: why gold names were missed, and the names most often wrong."""
    kinds: Counter = field(default_factory=Counter)
    missed: Counter = field(default_factory=Counter)
    spurious: Counter = field(default_factory=Counter)


def _as_written(name: str) -> str:
    """The name without a capital that only starts a sentence ("Training" -> "training")."""
    if name[:1].isupper() and not name[1:2].isupper():
        return name[:1].lower() + name[1:]
    return name


def kind_of(name: str, etype: str, diff: PaperDiff) -> str:
    """Why the gold name `name` of `etype` was missed in the paper of `diff`."""
    if generic.is_generic(_as_written(name), etype):
        return "generic"
    key = normalise(name)
    same = [normalise(s) for s in diff.spurious.get(etype, [])]
    if any(key in s or s in key for s in same if s):
        return "boundary"
    others = [normalise(s) for t, names in diff.spurious.items() if t != etype for s in names]
    return "type" if key in others else "not found"


def name_errors(diffs: Iterable[PaperDiff]) -> dict[str, NameErrors]:
    """type -> its NameErrors over the papers' diffs."""
    out = {t: NameErrors() for t in TYPES}
    for diff in diffs:
        for etype in TYPES:
            for name in diff.missed.get(etype, []):
                out[etype].kinds[kind_of(name, etype, diff)] += 1
                out[etype].missed[name] += 1
            out[etype].spurious.update(diff.spurious.get(etype, []))
    return out


def report(by_corpus: dict[str, dict[str, NameErrors]], top: int = 15) -> str:
    """Markdown: missed names by kind, then the most frequent missed and spurious names."""
    lines = ["missed gold names by kind:", "",
             "| corpus | type | missed | " + " | ".join(KINDS) + " |",
             "| --- | --- | ---: |" + " ---: |" * len(KINDS)]
    for corpus, errors in sorted(by_corpus.items()):
        for etype, e in errors.items():
            lines.append(f"| {corpus} | {etype} | {sum(e.kinds.values())} | "
                         + " | ".join(str(e.kinds[k]) for k in KINDS) + " |")
    for corpus, errors in sorted(by_corpus.items()):
        for etype, e in errors.items():
            for what, names in (("missed", e.missed), ("spurious", e.spurious)):
                common = ", ".join(f"{n} {c}" for n, c in names.most_common(top))
                lines.append(f"\n- {corpus} {etype}, {what}: {common}")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--run-dir", required=True, type=Path)
    ap.add_argument("--folds", type=int, default=3)
    ap.add_argument("--top", type=int, default=15)
    args = ap.parse_args(argv)
    # deferred: spaCy, onnxruntime and the extractors load only when run
    from graph.eval.scoring import score
    from graph.nlp import tagging_cutoffs
    from graph.tagger.heldout import GOLD, parse, tag
    from graph.tagger.thresholds import extractions

    gold, held = parse(args.folds)
    held = tag(args.run_dir, held, args.folds)
    by_corpus = {}
    for corpus, exts in extractions(held, tagging_cutoffs.shipped()).items():
        keys = {e.paper.key for e in exts}
        scored = score([g for g in gold[corpus] if g.id in keys], exts,
                       gold_name=GOLD[corpus].name)
        by_corpus[corpus] = name_errors(scored.papers)
        sys.stdout.write(f"{corpus}: " + ", ".join(
            f"{t} {s.precision:.3f} / {s.recall:.3f} / {s.f1:.3f}"
            for t, s in scored.entities.items() if t in TYPES) + "\n")
    sys.stdout.write("\n" + report(by_corpus, args.top))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
