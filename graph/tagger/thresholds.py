"""Choose the tagger's confidence cutoffs on out-of-fold predictions of the train splits.

    python -m graph.tagger.thresholds --run-dir DIR [--folds 3] [--write]

DIR holds the fold models of `python -m graph.tagger.cv` (DIR/fold{i}/model). Each train-split
gold abstract (tests/gold/scierc-train.json, tests/gold/scirex-train.json) is tagged by the model
of the fold that held it out, and run through mentions.v2 as a build runs it, with every other
default extractor; `paperkg eval`'s scoring (graph.eval.scoring.score: name level, SciERC's
OtherScientificTerm and Generic neutral) then scores each setting of the cutoffs. Dev gold is
never read. Metrics are then taken from the rules or from the tagger at its own best cutoff,
whichever scores the better F1 averaged over the two corpora (`Cutoffs.rule_types`). With
--write the chosen cutoffs go to data/models/tagger.thresholds.json with the command and the
out-of-fold figures.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from dataclasses import replace
from pathlib import Path

from graph.eval.scoring import score
from graph.model import PaperExtraction
from graph.nlp.tagging import MEASURES
from graph.nlp.tagging_cutoffs import DEFAULT_RULE_TYPES, PATH, RESCUES, Cutoffs
from graph.tagger.heldout import GOLD, Held, parse, tag
from graph.tagger.oof_errors import analyse

log = logging.getLogger("paperkg.tagger.thresholds")
#: the types whose spans mentions.v2 takes from the tagger (metrics come from the rules)
TUNED = ("method", "dataset", "task")
GRID = (0.0, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95)


def extractions(held: list[Held], cutoffs: Cutoffs) -> dict[str, list[PaperExtraction]]:
    """Per corpus, the default build's extractions with mentions.v2 under `cutoffs`."""
    # deferred: the extractors (spaCy) load only when extractions are made
    from graph.extractors import mentions
    from graph.extractors.pipeline import extract_doc
    from graph.nlp import text_clean

    out: dict[str, list[PaperExtraction]] = {}
    for h in held:
        v2 = mentions.combine(h.doc.text, h.spans, h.cands, cutoffs=cutoffs)
        found = extract_doc(h.doc, [lambda _doc, v2=v2, h=h: [*v2, *h.others]])
        out.setdefault(h.corpus, []).append(PaperExtraction(
            paper=h.paper, mentions=text_clean.to_verbatim(found, h.view, h.paper.abstract)))
    return out


def figures(gold: dict[str, list], held: list[Held], cutoffs: Cutoffs) -> dict:
    """corpus -> type -> "P/R/F1", scored as `paperkg eval` scores."""
    out = {}
    for corpus, exts in extractions(held, cutoffs).items():
        keys = {e.paper.key for e in exts}
        report = score([g for g in gold[corpus] if g.id in keys], exts,
                       gold_name=GOLD[corpus].name)
        out[corpus] = {t: f"{s.precision:.3f}/{s.recall:.3f}/{s.f1:.3f}"
                       for t, s in report.entities.items() if t in (*TUNED, "metric")}
    return out


def sweep(gold, held, measure: str, rescue: str) -> dict[float, dict]:
    """One uniform cutoff for every tuned type at a time: each type's curve is read off the
    same runs (a type's cutoff barely moves another type's figures)."""
    out = {}
    for t in GRID:
        out[t] = figures(gold, held, Cutoffs(measure, dict.fromkeys(TUNED, t), rescue))
        log.info("%s/%s %.2f %s", measure, rescue, t, out[t])
    return out


def f1(fig: dict, typ: str) -> float:
    """The F1 of a type averaged over the corpora."""
    return sum(float(fig[c][typ].split("/")[2]) for c in fig) / len(fig)


def picks(curve: dict[float, dict]) -> dict[str, float]:
    """Per type, the cutoff with the best mean F1 (the lowest on ties)."""
    return {typ: _best(curve, typ) for typ in TUNED}


def _best(curve: dict[float, dict], typ: str) -> float:
    return max(curve, key=lambda t: (round(f1(curve[t], typ), 4), -t))


def total(curve: dict[float, dict]) -> float:
    return sum(f1(curve[t], typ) for typ, t in picks(curve).items())


def choose(gold, held, measures, rescues) -> tuple[Cutoffs, dict]:
    """The measure first (without rescue), then the rescue mode with it: the setting whose
    per-type best cutoffs sum to the most F1; per type, the cutoff with the best F1 averaged
    over the two corpora."""
    curves = {(m, "none"): sweep(gold, held, m, "none") for m in measures}
    measure = max(measures, key=lambda m: total(curves[(m, "none")]))
    for r in rescues:
        if r != "none":
            curves[(measure, r)] = sweep(gold, held, measure, r)
    rescue = max((r for m, r in curves if m == measure),
                 key=lambda r: (round(total(curves[(measure, r)]), 4), r == "none"))
    return Cutoffs(measure, picks(curves[(measure, rescue)]), rescue), curves


def metric_source(gold, held, chosen: Cutoffs) -> tuple[Cutoffs, dict, dict[float, dict]]:
    """`chosen` with metrics from the tagger at its best cutoff when that beats the rules' F1
    (averaged over the corpora; the rules on ties), else `chosen`; the figures with the rules'
    metrics; and the tagger's curve."""
    rules = figures(gold, held, replace(chosen, rule_types=DEFAULT_RULE_TYPES))
    curve = {}
    for t in GRID:
        curve[t] = figures(gold, held, replace(
            chosen, by_type={**chosen.by_type, "metric": t}, rule_types=()))
        log.info("metric from the tagger %.2f %s", t, curve[t])
    best = _best(curve, "metric")
    if round(f1(curve[best], "metric"), 4) > round(f1(rules, "metric"), 4):
        chosen = replace(chosen, by_type={**chosen.by_type, "metric": best}, rule_types=())
    else:
        chosen = replace(chosen, rule_types=DEFAULT_RULE_TYPES)
    return chosen, rules, curve


def fold_runs(run_dir: Path, k: int) -> list[str]:
    """How each fold model was trained (from its stages' train.json)."""
    out = []
    for i in range(k):
        stages = []
        fold = run_dir / f"fold{i}"
        for path in sorted(fold.glob("stage*/train.json")):
            a = json.loads(path.read_text(encoding="utf-8"))["args"]
            stages.append(f"{path.parent.name}: {a['epochs']} epoch(s), scirex "
                          f"{a['scirex_abstracts']}, body tokens {a['body_tokens']}, seed "
                          f"{a['seed']}, threads {a['threads']}")
        if (fold / "soup" / "soup.json").is_file():
            stages.append("weights: the mean of the second stages")
        out.append(f"fold {i}/{k}: " + "; ".join(stages))
    return out


def main(argv=None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--run-dir", required=True, type=Path)
    ap.add_argument("--folds", type=int, default=3)
    ap.add_argument("--measures", default=",".join(MEASURES))
    ap.add_argument("--rescues", default=",".join(RESCUES))
    ap.add_argument("--limit", type=int, default=None, help="papers per corpus and fold (a check)")
    ap.add_argument("--wait", action="store_true", help="wait for the fold runs to finish")
    ap.add_argument("--errors", type=Path, default=None,
                    help="also write the error analysis (graph.tagger.oof_errors) here")
    ap.add_argument("--write", action="store_true", help=f"write the chosen cutoffs to {PATH}")
    args = ap.parse_args(argv)
    gold, held = parse(args.folds, args.limit)
    held = tag(args.run_dir, held, args.folds, args.wait)
    chosen, curves = choose(gold, held, args.measures.split(","), args.rescues.split(","))
    chosen, rules_metrics, metric_curve = metric_source(gold, held, chosen)
    curves[(chosen.measure, chosen.rescue + "/metric-from-tagger")] = metric_curve
    record = {
        "cutoffs": chosen.to_dict(),
        "command": "python -m graph.tagger.thresholds " + " ".join(argv or sys.argv[1:]),
        "chosen_on": "out-of-fold predictions on SciERC train and the SciREX train split "
                     f"({len(held)} abstracts, folds "
                     f"{sorted({h.fold for h in held})} of {args.folds}; graph.tagger.cv)",
        "fold_runs": fold_runs(args.run_dir, args.folds),
        "objective": "per type, the best F1 averaged over the two corpora (P/R/F1 below); "
                     "metrics from the rules or from the tagger at its best cutoff, by the same "
                     "F1",
        "out_of_fold": {"none": figures(gold, held, Cutoffs(chosen.measure)),
                        "metrics from the rules": rules_metrics,
                        "chosen": figures(gold, held, chosen)},
        "curves": {f"{m}/{r}": {str(t): c for t, c in curve.items()}
                   for (m, r), curve in curves.items()},
    }
    text = json.dumps(record, indent=1, sort_keys=True) + "\n"
    if args.write:
        PATH.write_text(text, encoding="utf-8")
    sys.stdout.write(text)
    if args.errors:
        args.errors.write_text("## every tagged span\n\n" + analyse(held, Cutoffs()) +
                               "\n## kept by the chosen cutoffs\n\n" + analyse(held, chosen),
                               encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
