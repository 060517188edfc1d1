"""The train-split gold abstracts held out by each fold of the tagger's cross-validation, parsed
once with their rule candidates and the other default extractors' mentions, and tagged by the
fold model that did not see them: what graph.tagger.thresholds and graph.tagger.oof_errors read.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graph.eval.gold import load_gold
from graph.model import Paper
from graph.nlp.tagging import Span
from graph.paths import ROOT
from graph.tagger.folds import fold_of

log = logging.getLogger("paperkg.tagger.heldout")
GOLD = {"scierc": ROOT / "tests" / "gold" / "scierc-train.json",
        "scirex": ROOT / "tests" / "gold" / "scirex-train.json"}


def doc_id(corpus: str, paper_id: str) -> str:
    """The id graph.tagger.folds assigns a fold by (SciERC gold ids carry a corpus prefix)."""
    prefix = corpus + ":"
    return paper_id[len(prefix):] if paper_id.startswith(prefix) else paper_id


@dataclass
class Held:
    """One held-out gold abstract, parsed once: what a setting of the cutoffs recombines."""

    corpus: str
    fold: int
    gold: Any
    paper: Paper
    doc: Any
    view: Any
    spans: list[Span]
    cands: tuple
    others: list


def parse(k: int, limit: int | None = None) -> tuple[dict[str, list], list[Held]]:
    """Gold papers per corpus, and each one parsed with its rule candidates and the other
    default extractors' mentions (its tagged spans come with `tag`)."""
    # deferred: spaCy and the extractors load only when gold papers are parsed
    from graph import extractors as registry
    from graph import nlp as nlp_loader
    from graph.extractors import candidates as rules
    from graph.nlp import text_clean

    nlp = nlp_loader.load()
    others = [registry.get(n) for n in registry.DEFAULT_EXTRACTORS if n != "mentions.v2"]
    gold, held = {}, []
    for corpus, path in GOLD.items():
        papers = load_gold(path)
        if limit is not None:
            papers = [g for i in range(k) for g in papers
                      if fold_of(doc_id(corpus, g.id), k) == i][:limit * k]
        gold[corpus] = papers
        views = [text_clean.extraction_view(g.abstract) for g in papers]
        for g, view, doc in zip(papers, views, nlp.pipe(v.text for v in views), strict=True):
            found = [m for fn in others for m in fn(doc)]
            held.append(Held(corpus, fold_of(doc_id(corpus, g.id), k), g,
                             Paper(key=g.id, abstract=g.abstract, title=g.title, id=g.id),
                             doc, view, [], rules.candidates(doc), found))
    return gold, held


def tag(run_dir: Path, held: list[Held], k: int, wait: bool = False) -> list[Held]:
    """Tag each paper with the model of the fold that held it out; with `wait`, wait for the
    fold models still training. Papers of folds without a model are left out. The spans, with
    both confidences, are saved to run_dir/oof_spans.jsonl."""
    from graph.nlp import tagging  # deferred: onnxruntime

    out = []
    for i in range(k):
        model = run_dir / f"fold{i}" / "model"
        done = run_dir / f"fold{i}" / "cv.json"
        while wait and not done.is_file():
            time.sleep(30)
        if not (model / "tagger.onnx").is_file():
            log.warning("fold %d has no model: its papers are left out", i)
            continue
        tagger = tagging.Tagger(model / "tagger.onnx", model / "tagger.tokenizer.json", 1)
        for h in held:
            if h.fold == i:
                h.spans = tagger.tag(h.doc.text)
                out.append(h)
        log.info("fold %d tagged", i)
    with open(run_dir / "oof_spans.jsonl", "w", encoding="utf-8") as fh:
        for h in out:
            fh.write(json.dumps({"corpus": h.corpus, "id": h.paper.id, "fold": h.fold, "spans": [
                [s.start, s.end, s.type, round(s.confidence, 4), round(s.floor, 4)]
                for s in h.spans]}) + "\n")
    return out
