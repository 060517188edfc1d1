"""Error analysis of the tagger on its out-of-fold predictions (train splits only).

    python -m graph.tagger.oof_errors --run-dir DIR [--examples 4] [--cutoffs data/models/...]

Each train-split gold abstract is tagged by the model of the fold that held it out (as in
graph.tagger.thresholds); the spans kept by the cutoffs are compared with the gold mentions at
span level and sorted into kinds of error, and the gold mentions no tagged span finds are sorted
by type and by the shape of the name. Dev splits are never read.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter, defaultdict
from pathlib import Path

from graph.extractors.mentions import function_words
from graph.generic import is_generic_mention
from graph.model import Mention
from graph.nlp import tagging_cutoffs as cutoff_file
from graph.nlp.tagging import Span
from graph.tagger.heldout import parse, tag

#: tagged-span outcomes, in the order of the report
OUTCOMES = ("exact", "boundary", "type", "boundary+type", "neutral", "generic", "unannotated")


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def outcome(span: Span, gold: list[tuple[int, int, str]], neutral: list[tuple[int, int]],
            text: str) -> str:
    """What a kept tagged span is against the gold mentions of its abstract."""
    key = (span.start, span.end)
    same = [(s, e) for s, e, t in gold if t == span.type]
    if key in same:
        return "exact"
    if any(_overlap(key, g) for g in same):
        return "boundary"
    other = [(s, e) for s, e, t in gold if t != span.type and _overlap(key, (s, e))]
    if other:
        return "type" if key in other else "boundary+type"
    if any(_overlap(key, n) for n in neutral):
        return "neutral"
    m = Mention(type=span.type, text=text[span.start:span.end], start=span.start, end=span.end,
                extractor="tagger", confidence=span.confidence)
    return "generic" if is_generic_mention(m, sentence_start=True) else "unannotated"


def shape(name: str) -> str:
    """The kind of a name: an acronym, a capitalised name, or lowercase words."""
    letters = [c for c in name if c.isalpha()]
    if letters and sum(c.isupper() for c in letters) >= max(2, len(letters) // 2):
        return "acronym-like"
    if any(c.isupper() or c.isdigit() for c in name):
        return "capitalised or with digits"
    return "lowercase, one word" if len(name.split()) == 1 else "lowercase phrase"


def analyse(held, cut: cutoff_file.Cutoffs, examples: int = 4, seed: int = 7) -> str:
    counts: dict[str, Counter] = defaultdict(Counter)
    confusions: Counter = Counter()
    missed: Counter = Counter()
    found: Counter = Counter()
    samples: dict[str, list[str]] = defaultdict(list)
    for h in held:
        text = h.doc.text
        gold = list(h.gold.mentions)
        neutral = [(s, e) for s, e, _ in h.gold.neutral]
        ruled = [(c.start, c.end, c.type) for c in h.cands]
        kept = [s for s in h.spans if s.type != "metric" and cut.keeps(s, ruled)
                and not function_words(text[s.start:s.end])]
        for s in kept:
            kind = outcome(s, gold, neutral, text)
            counts[h.corpus][kind] += 1
            if kind in ("type", "boundary+type"):
                g = next(t for a, b, t in gold
                         if _overlap((s.start, s.end), (a, b)) and t != s.type)
                confusions[(g, s.type)] += 1
            samples[f"{kind}"].append(f"{h.corpus} {h.paper.id}: \"{text[s.start:s.end]}\" "
                                      f"({s.type}, {s.confidence:.2f})")
        for a, b, t in gold:
            if t == "metric":
                continue
            hit = any(_overlap((a, b), (s.start, s.end)) and s.type == t for s in kept)
            key = (h.corpus, t, shape(text[a:b]))
            (found if hit else missed)[key] += 1
            if not hit:
                samples[f"missed {t}"].append(f"{h.corpus} {h.paper.id}: \"{text[a:b]}\"")
    rng = random.Random(seed)
    lines = [f"cutoffs: {cut.to_dict()}; {len(held)} held-out train abstracts", "",
             "tagged spans (method, dataset, task) by outcome:",
             "| corpus | " + " | ".join(OUTCOMES) + " |",
             "| --- |" + " --- |" * len(OUTCOMES)]
    for corpus, c in sorted(counts.items()):
        lines.append(f"| {corpus} | " + " | ".join(str(c[o]) for o in OUTCOMES) + " |")
    lines += ["", "type confusions (gold -> tagged): " + ", ".join(
        f"{g}->{t} {n}" for (g, t), n in confusions.most_common())]
    lines += ["", "gold mentions missed / all, by type and shape:"]
    for key in sorted(set(found) | set(missed)):
        total = found[key] + missed[key]
        lines.append(f"- {key[0]} {key[1]}, {key[2]}: {missed[key]} / {total}")
    lines += ["", "examples:"]
    for kind in sorted(samples):
        if kind == "exact":
            continue
        pick = rng.sample(samples[kind], min(examples, len(samples[kind])))
        lines += [f"- {kind}: " + "; ".join(pick)]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--run-dir", required=True, type=Path)
    ap.add_argument("--folds", type=int, default=3)
    ap.add_argument("--cutoffs", type=Path, default=cutoff_file.PATH)
    ap.add_argument("--no-cutoffs", action="store_true", help="every tagged span")
    ap.add_argument("--examples", type=int, default=4)
    args = ap.parse_args(argv)
    _, held = parse(args.folds)
    held = tag(args.run_dir, held, args.folds)
    cut = cutoff_file.KEEP_ALL if args.no_cutoffs else cutoff_file.load(args.cutoffs)
    sys.stdout.write(analyse(held, cut, args.examples))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
