"""Name-level scores of entity extraction on SciERC dev and SciREX dev abstracts.

    python -m graph.tagger.score --corpus scierc|scirex --system rules|tagger|v2 [--model M.onnx]

Per abstract, the set of distinct normalised names of each type (models count as methods) is
compared with the gold names; P/R/F1 are micro-averaged over abstracts. On SciERC a predicted
name equal to an OtherScientificTerm, Generic or non-name Material span is neutral. This is the
scoring `paperkg eval --corpus` applies; kept here so that the tagger can be measured alone.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

from graph.tagger.data import (
    SHARED,
    TYPES,
    scierc_docs,
    scierc_neutral,
    scirex_docs,
    scirex_examples,
)

_NON_WORD = re.compile(r"[^0-9a-z]+")


def norm(name: str) -> str:
    return _NON_WORD.sub(" ", name.lower()).strip()


def gold(corpus: str) -> list[tuple[str, str, dict[str, set[str]], set[str]]]:
    """(id, text, names per type, neutral names) of each dev abstract."""
    out = []
    if corpus == "scierc":
        path = SHARED / "scierc" / "dev.json"
        neutral = scierc_neutral(path)
        for key, sents in scierc_docs(path):
            text = " ".join(ex.text for ex in sents)
            names: dict[str, set[str]] = {t: set() for t in TYPES}
            for ex in sents:
                for s, e, t in ex.spans:
                    names[t].add(norm(ex.text[s:e]))
            out.append((key, text, names, {norm(n) for n in neutral[key]}))
    else:
        for ex in scirex_examples(scirex_docs(SHARED / "scirex" / "train_docs", dev=True)):
            names = {t: set() for t in TYPES}
            for s, e, t in ex.spans:
                names[t].add(norm(ex.text[s:e]))
            out.append((ex.source, ex.text, names, set()))
    return out


def predict(texts: list[str], system: str) -> list[list[tuple[str, str]]]:
    # deferred: spaCy and onnxruntime load only when a system is scored
    from graph import nlp as nlp_loader
    from graph.extractors import candidates, mentions
    from graph.nlp import tagging

    if system == "tagger":
        tagger = tagging.shared()
        return [[(s.type, t[s.start : s.end]) for s in tagger.tag(t)] for t in texts]
    out = []
    for doc in nlp_loader.load().pipe(texts):
        if system == "rules":
            found = [(c.type, c.text) for c in candidates.candidates(doc)]
        elif system == "v2":
            found = [(m.type, m.text) for m in mentions.extract(doc)]
        elif system == "v2-tagger-metric":
            found = [(m.type, m.text) for m in mentions.combine(
                doc.text, mentions.tagged(doc), candidates.candidates(doc),
                rule_types=frozenset())]
        elif system == "v2-dataset-union":
            found = [(m.type, m.text) for m in mentions.combine(
                doc.text, mentions.tagged(doc), candidates.candidates(doc),
                union_types=frozenset({"dataset"}))]
        else:
            found = [(m.type, m.text) for m in mentions.extract_tagger_only(doc)]
        out.append(found)
    return out


def score(corpus: str, system: str) -> dict[str, dict[str, float]]:
    rows = gold(corpus)
    preds = predict([r[1] for r in rows], system)
    tp: Counter[str] = Counter()
    fp: Counter[str] = Counter()
    fn: Counter[str] = Counter()
    for (_, _, names, neutral), found in zip(rows, preds, strict=True):
        pred: dict[str, set[str]] = {t: set() for t in TYPES}
        for typ, text in found:
            typ = "method" if typ == "model" else typ
            if typ in pred and norm(text):
                pred[typ].add(norm(text))
        for t in TYPES:
            hits = pred[t] & names[t]
            tp[t] += len(hits)
            fp[t] += len(pred[t] - names[t] - neutral)
            fn[t] += len(names[t] - pred[t])
    out = {}
    for t in TYPES:
        p = tp[t] / (tp[t] + fp[t]) if tp[t] + fp[t] else 0.0
        r = tp[t] / (tp[t] + fn[t]) if tp[t] + fn[t] else 0.0
        f = 2 * p * r / (p + r) if p + r else 0.0
        out[t] = {"p": round(p, 3), "r": round(r, 3), "f1": round(f, 3), "gold": tp[t] + fn[t]}
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", choices=("scierc", "scirex"), required=True)
    ap.add_argument("--system", default="v2",
                    choices=("rules", "tagger", "v2", "v2-no-union", "v2-tagger-metric",
                             "v2-dataset-union"))
    ap.add_argument("--model", type=Path, help="an ONNX tagger other than the shipped one")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args(argv)
    from graph.nlp import tagging  # deferred: onnxruntime, after the arguments are read

    if args.system != "rules":
        opts = {"threads": args.threads}
        if args.model:
            opts["model_path"] = args.model
        tagging.configure(**opts)
    result = score(args.corpus, args.system)
    for t, m in result.items():
        line = (f"{args.corpus}\t{args.system}\t{t}\t"
                f"P {m['p']:.3f}\tR {m['r']:.3f}\tF1 {m['f1']:.3f}")
        sys.stdout.write(f"{line}\tgold {m['gold']}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
