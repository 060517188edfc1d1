"""Cross-validated tagger runs on the train splits: out-of-fold predictions for thresholds and
error analysis (torch; the `train` extra).

    python -m graph.tagger.cv --run-dir DIR [--folds 3] [--only i]

Each fold i of K (graph.tagger.folds, over SciERC train documents and SciREX train-split papers)
is held out in turn: a model is trained on the other folds with the shipped recipe (the first
stage of graph.tagger.train, the second once per seed and their mean weights), exported and
quantised as the shipped model is, and run by
graph.nlp.tagging over the held-out documents as `paperkg eval` reads them (a SciERC
abstract's sentences joined; a SciREX paper's title and abstract). What is saved per fold,
DIR/fold{i}/oof.jsonl (one held-out document a line: corpus, id, text, gold spans, neutral
names) and DIR/fold{i}/oof.npz (per document, the label probabilities of every wordpiece), is
enough to decode spans and confidences with any runtime code (graph.tagger.thresholds).
SciERC dev and the SciREX dev split are never read.
"""

from __future__ import annotations

import argparse
import json
import logging
import time
from pathlib import Path

import numpy as np

from graph.tagger.data import SHARED, scierc_docs, scierc_neutral, scirex_docs, scirex_examples
from graph.tagger.folds import fold_of

log = logging.getLogger("paperkg.tagger.cv")


def held_out(i: int, k: int, scierc: Path, scirex: Path) -> list[dict]:
    """The documents of fold i, as the evaluation reads them, with gold character spans."""
    out = []
    neutral = scierc_neutral(scierc)
    for key, sents in scierc_docs(scierc):
        if fold_of(key, k) != i:
            continue
        text, spans, offset = [], [], 0
        for ex in sents:
            spans += [[s + offset, e + offset, t] for s, e, t in ex.spans]
            text.append(ex.text)
            offset += len(ex.text) + 1
        out.append({"corpus": "scierc", "id": key, "text": " ".join(text), "gold": spans,
                    "neutral": neutral[key]})
    for ex in scirex_examples([d for d in scirex_docs(scirex, dev=False)
                               if fold_of(d["doc_id"], k) == i]):
        out.append({"corpus": "scirex", "id": ex.source, "text": ex.text,
                    "gold": [list(s) for s in ex.spans], "neutral": []})
    return out


def predict(model_dir: Path, docs: list[dict], threads: int) -> dict[str, np.ndarray]:
    """Per document ("corpus:id"), the wordpiece label probabilities of the exported model."""
    # deferred: onnxruntime loads only when a fold model tags
    from graph.nlp.tagging import Tagger, pieces

    tagger = Tagger(model_dir / "tagger.onnx", model_dir / "tagger.tokenizer.json", threads)
    return {f"{d['corpus']}:{d['id']}": tagger.probabilities(pieces(tagger.tokenizer, d["text"]))
            for d in docs}


def run_fold(run_dir: Path, i: int, k: int, threads: int = 2, stage1_epochs: int | None = None,
             body_tokens: int | None = None, probs: bool = True,
             scierc: Path = SHARED / "scierc" / "train.json",
             scirex: Path = SHARED / "scirex" / "train_docs") -> dict:
    """Train, export and predict fold i of k. `stage1_epochs` and `body_tokens` (SciREX body
    tokens per paper in the second stage) shorten the shipped recipe; without `probs` the
    held-out documents are listed but not tagged (graph.tagger.thresholds tags them)."""
    # deferred: torch (the `train` extra) loads only when a fold trains
    from graph.tagger import export
    from graph.tagger.train import STAGE_1, parser, second_stages, train

    fold = run_dir / f"fold{i}"
    first, model = fold / "stage1", fold / "model"
    common = ["--threads", str(threads), "--fold", f"{i}/{k}",
              "--scierc", str(scierc), "--scirex", str(scirex)]
    t0 = time.time()
    if not (first / "weights.pt").is_file():
        stage1 = STAGE_1 if stage1_epochs is None else ("--epochs", str(stage1_epochs))
        train(parser().parse_args(["--out", str(first), *stage1, *common]))
    if not (model / "tagger.onnx").is_file():
        soup, _ = second_stages(fold, common, body_tokens, resume=True)
        export.main([str(soup), "--out", str(model)])
    docs = held_out(i, k, scierc, scirex)
    if probs:
        np.savez_compressed(fold / "oof.npz", **predict(model, docs, threads))  # type: ignore[arg-type]
    with open(fold / "oof.jsonl", "w", encoding="utf-8") as fh:
        for d in docs:
            fh.write(json.dumps(d, ensure_ascii=False, sort_keys=True) + "\n")
    meta = {"fold": f"{i}/{k}", "held_out": len(docs), "seconds": round(time.time() - t0)}
    (fold / "cv.json").write_text(json.dumps(meta, indent=2) + "\n")
    log.info("fold %d/%d: %d held-out documents, %d s", i, k, len(docs), meta["seconds"])
    return meta


def run(run_dir: str | Path, k: int = 3, threads: int = 2, only: int | None = None,
        stage1_epochs: int | None = None, body_tokens: int | None = None,
        probs: bool = True) -> str:
    """All folds (or fold `only`), one after another; finished stages are not redone."""
    done = [run_fold(Path(run_dir), i, k, threads, stage1_epochs, body_tokens, probs)
            for i in range(k) if only in (None, i)]
    return "tagger cv: " + ", ".join(f"fold {m['fold']} {m['held_out']} docs {m['seconds']} s"
                                     for m in done)


def main(argv=None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--run-dir", required=True, type=Path)
    ap.add_argument("--folds", type=int, default=3)
    ap.add_argument("--only", type=int, default=None, help="run fold i alone")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--stage1-epochs", type=int, default=None,
                    help="epochs of the first stage (default: the shipped recipe's 8)")
    ap.add_argument("--stage2-body-tokens", type=int, default=None,
                    help="SciREX body tokens per paper in the second stage "
                    "(default: the shipped recipe's, graph.tagger.train.STAGE_2)")
    ap.add_argument("--no-probs", dest="probs", action="store_false",
                    help="do not save the held-out documents' label probabilities")
    args = ap.parse_args(argv)
    logging.getLogger("paperkg").info(run(
        args.run_dir, args.folds, args.threads, args.only, args.stage1_epochs,
        args.stage2_body_tokens, args.probs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
