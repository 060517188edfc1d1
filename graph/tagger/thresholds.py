"""Choose the tagger's confidence cutoffs on out-of-fold predictions of the train splits.

    python -m graph.tagger.thresholds --run-dir DIR [--folds 3] [--write]

DIR holds the fold models of `python -m graph.tagger.cv` (DIR/fold{i}/model). Each train-split
gold abstract (tests/gold/scierc-train.json, tests/gold/scirex-train.json) is tagged by the model
of the fold that held it out, and run through mentions.v2 as a build runs it, with every other
default extractor; `paperkg eval`'s scoring (graph.evaluate.score: name level, SciERC's
OtherScientificTerm and Generic neutral) then scores each setting of the cutoffs. Dev gold is
never read. With --write the chosen cutoffs go to data/models/tagger.thresholds.json with the
command and the out-of-fold figures.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from dataclasses import dataclass
from pathlib import Path

from graph.evaluate import load_gold, score
from graph.model import Paper, PaperExtraction
from graph.paths import ROOT
from graph.tagger.cutoffs import PATH, RESCUES, Cutoffs
from graph.tagger.folds import fold_of
from graph.tagger.runtime import MEASURES, Span

log = logging.getLogger("paperkg.tagger.thresholds")
GOLD = {"scierc": ROOT / "tests" / "gold" / "scierc-train.json",
        "scirex": ROOT / "tests" / "gold" / "scirex-train.json"}
#: the types whose spans mentions.v2 takes from the tagger (metrics come from the rules)
TUNED = ("method", "dataset", "task")
GRID = tuple(round(0.05 * i, 2) for i in range(0, 20))


def doc_id(corpus: str, paper_id: str) -> str:
    """The id graph.tagger.folds assigns a fold by (SciERC gold ids carry a corpus prefix)."""
    prefix = corpus + ":"
    return paper_id[len(prefix):] if paper_id.startswith(prefix) else paper_id


@dataclass
class Held:
    """One held-out gold abstract, parsed once: what a setting of the cutoffs recombines."""

    corpus: str
    fold: int
    paper: Paper
    doc: object
    view: object
    spans: list[Span]
    cands: tuple
    others: list


def held_out(run_dir: Path, k: int) -> tuple[dict[str, list], list[Held]]:
    """Gold papers per corpus, and each one tagged by its fold's model (folds without a
    finished model are left out, and so are their papers)."""
    from graph import extractors as registry
    from graph import nlp as nlp_loader
    from graph import text_clean
    from graph.extractors import candidates as rules
    from graph.tagger import runtime

    nlp = nlp_loader.load()
    others = [registry.get(n) for n in registry.DEFAULT_EXTRACTORS if n != "mentions.v2"]
    gold, held = {}, []
    for i in range(k):
        model = run_dir / f"fold{i}" / "model"
        if not (model / "tagger.onnx").is_file():
            log.warning("fold %d has no model yet: its papers are left out", i)
            continue
        tagger = runtime.Tagger(model / "tagger.onnx", model / "tagger.tokenizer.json", 1)
        for corpus, path in GOLD.items():
            papers = [g for g in load_gold(path) if fold_of(doc_id(corpus, g.id), k) == i]
            gold.setdefault(corpus, []).extend(papers)
            views = [text_clean.extraction_view(g.abstract) for g in papers]
            for g, view, doc in zip(papers, views, nlp.pipe(v.text for v in views), strict=True):
                found = [m for fn in others for m in fn(doc)]
                held.append(Held(corpus, i, Paper(key=g.id, abstract=g.abstract, title=g.title,
                                                  id=g.id),
                                 doc, view, tagger.tag(doc.text), rules.candidates(doc), found))
    return gold, held


def extractions(held: list[Held], cutoffs: Cutoffs) -> dict[str, list[PaperExtraction]]:
    """Per corpus, the default build's extractions with mentions.v2 under `cutoffs`."""
    from graph import text_clean
    from graph.extractors import mentions
    from graph.pipeline import extract_doc

    out: dict[str, list[PaperExtraction]] = {}
    for h in held:
        v2 = mentions.combine(h.doc.text, h.spans, h.cands, cutoffs=cutoffs)
        found = extract_doc(h.doc, [lambda _doc, v2=v2, h=h: [*v2, *h.others]])
        out.setdefault(h.corpus, []).append(PaperExtraction(
            paper=h.paper, mentions=text_clean.to_verbatim(found, h.view, h.paper.abstract)))
    return out


def figures(gold: dict[str, list], held: list[Held], cutoffs: Cutoffs) -> dict:
    """corpus -> type -> (P, R, F1), scored as `paperkg eval` scores."""
    out = {}
    for corpus, exts in extractions(held, cutoffs).items():
        report = score(gold[corpus], exts, gold_name=GOLD[corpus].name)
        out[corpus] = {t: (round(s.precision, 4), round(s.recall, 4), round(s.f1, 4))
                       for t, s in report.entities.items() if t in (*TUNED, "metric")}
    return out


def sweep(gold, held, measure: str, rescue: str) -> dict[float, dict]:
    """One uniform cutoff for every tuned type at a time: each type's curve is read off the
    same runs (a type's cutoff barely moves another type's figures)."""
    return {t: figures(gold, held, Cutoffs(measure, dict.fromkeys(TUNED, t), rescue))
            for t in GRID}


def mean_f1(fig: dict, typ: str) -> float:
    return sum(fig[c][typ][2] for c in fig) / len(fig)


def choose(curves: dict[tuple[str, str], dict[float, dict]]) -> tuple[Cutoffs, dict]:
    """Per type, the cutoff with the best F1 averaged over the two corpora; the measure and
    rescue mode are those whose per-type best cutoffs sum to the most F1."""
    best = None
    for (measure, rescue), curve in curves.items():
        picks = {typ: max(GRID, key=lambda t, typ=typ: (round(mean_f1(curve[t], typ), 4), -t))
                 for typ in TUNED}
        total = sum(mean_f1(curve[picks[typ]], typ) for typ in TUNED)
        if best is None or total > best[0] + 1e-9:
            best = (total, Cutoffs(measure, picks, rescue))
    return best[1], {}


def main(argv=None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--run-dir", required=True, type=Path)
    ap.add_argument("--folds", type=int, default=3)
    ap.add_argument("--measures", default=",".join(MEASURES))
    ap.add_argument("--rescues", default=",".join(RESCUES))
    ap.add_argument("--write", action="store_true", help=f"write the chosen cutoffs to {PATH}")
    args = ap.parse_args(argv)
    gold, held = held_out(args.run_dir, args.folds)
    curves = {(m, r): sweep(gold, held, m, r)
              for m in args.measures.split(",") for r in args.rescues.split(",")}
    chosen, _ = choose(curves)
    record = {
        "cutoffs": chosen.to_dict(),
        "command": "python -m graph.tagger.thresholds " + " ".join(argv or sys.argv[1:]),
        "chosen_on": "out-of-fold predictions on SciERC train and the SciREX train split "
                     f"({len(held)} abstracts, folds "
                     f"{sorted({h.fold for h in held})} of {args.folds}; graph.tagger.cv)",
        "objective": "per type, the best F1 averaged over the two corpora",
        "out_of_fold": {"none": figures(gold, held, Cutoffs(chosen.measure)),
                        "chosen": figures(gold, held, chosen)},
        "curves": {f"{m}/{r}": {str(t): c for t, c in curve.items()}
                   for (m, r), curve in curves.items()},
    }
    text = json.dumps(record, indent=1, sort_keys=True) + "\n"
    if args.write:
        PATH.write_text(text, encoding="utf-8")
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
