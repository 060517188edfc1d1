"""Cutoffs by the shape of a tagged span's text, measured on out-of-fold train predictions.

    python bench/shape_cutoffs.py --run-dir RUN [--folds 3]

RUN holds the fold models of `python -m graph.tagger.cv`. A span is "name"-shaped when its
text has a capital or a digit (the rule by which SciERC's Material counts as a dataset), else a
"phrase". Each pair (name cutoff, phrase cutoff) of the grid is applied to every tuned type at
once (as graph.tagger.thresholds sweeps one cutoff for all types), with the shipped measure
and rescue, and each type's best pair is printed with its out-of-fold P/R/F1 on both train
splits, next to the best single cutoff of the same grid. Dev gold is never read.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from graph.nlp import tagging_cutoffs  # noqa: E402
from graph.tagger import thresholds  # noqa: E402
from graph.tagger.heldout import parse, tag  # noqa: E402

GRID = (0.0, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95)
_TEXT = {"current": ""}


def shape(text: str) -> str:
    return "name" if any(c.isupper() or c.isdigit() for c in text) else "phrase"


class ShapeCutoffs(tagging_cutoffs.Cutoffs):
    def keeps(self, span, rules=()):
        text = _TEXT["current"][span.start:span.end]
        cut = self.by_type.get(f"{span.type}:{shape(text)}", 0.0)
        if span.score(self.measure) >= cut:
            return True
        return self.rescue == "same-span" and any((s, e) == (span.start, span.end)
                                                  for s, e, _ in rules)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--run-dir", required=True, type=Path)
    ap.add_argument("--folds", type=int, default=3)
    args = ap.parse_args(argv)
    from graph.extractors import mentions

    combine = mentions.combine

    def remembering(text, *rest, **named):
        _TEXT["current"] = text
        return combine(text, *rest, **named)

    mentions.combine = remembering
    shipped = tagging_cutoffs.shipped()
    gold, held = parse(args.folds)
    held = tag(args.run_dir, held, args.folds, False)
    grid = {}
    for a, b in itertools.product(GRID, GRID):
        by_type = {f"{t}:name": a for t in thresholds.TUNED}
        by_type |= {f"{t}:phrase": b for t in thresholds.TUNED}
        grid[(a, b)] = thresholds.figures(
            gold, held, ShapeCutoffs(shipped.measure, by_type, shipped.rescue))
    for typ in thresholds.TUNED:
        best = max(grid, key=lambda k: (round(thresholds.f1(grid[k], typ), 4), -k[0], -k[1]))
        single = max((k for k in grid if k[0] == k[1]),
                     key=lambda k: (round(thresholds.f1(grid[k], typ), 4), -k[0]))
        for label, key in (("by shape", best), ("single", single)):
            fig = grid[key]
            print(f"{typ:8} {label:9} name {key[0]:.2f} phrase {key[1]:.2f}  "
                  f"SciERC {fig['scierc'][typ]}  SciREX {fig['scirex'][typ]}  "
                  f"mean F1 {thresholds.f1(fig, typ):.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
