"""Fit the entity candidate scorer on SciREX full texts: `paperkg train`.

Training examples are the candidates graph.extractors.candidates generates on passages of each
paper's *body* (the sections after the abstract), labelled with SciREX's mentions (Material is
dataset). A candidate is labelled with a type when its span is a SciREX mention of that type, or
when its normalised text names an entity of that type anywhere in the paper (SciREX marks
mentions sparsely; entity-level names are what the extractors are judged on).

Only the SciREX train split is used (graph.eval.splits: 20 % of the papers, by a hash of the doc id,
are the dev split that `paperkg eval --corpus scirex` reports on). With `folds` > 1 the train
papers are also split k-fold by document: a scorer fitted on the bodies of the other folds types
the abstracts of each held-out fold, and those predictions are scored against the gold set
(tests/gold/scirex-train.json), so no figure comes from a paper the scorer saw.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from graph import nlp as nlp_loader
from graph.errors import InputError
from graph.eval.gold import load_gold
from graph.eval.matching import normalise
from graph.eval.scirex_passages import (
    TYPES,
    Passage,
    abstract_passage,
    doc_names,
    load_scirex,
    passages,
    train_split,
)
from graph.eval.scoring import filter_confidence, score
from graph.extractors import candidates as cand_mod
from graph.extractors.scorer import FORMAT, NONE, Scorer
from graph.model import Mention, Paper, PaperExtraction
from graph.paths import DATA_DIR

CLASSES: tuple[str, ...] = (NONE, *TYPES)
MODEL_FILE = "entity_scorer.json"
REPORT_FILE = "entity_scorer.report.json"

# confidence thresholds the held-out scores are reported at; the best F1 per type is shipped
HELDOUT_THRESHOLDS = (0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6, 0.7)
# features seen in fewer training examples than this are dropped (they cannot be learned)
_MIN_FEATURE_COUNT = 2


@dataclass
class TrainReport:
    n_docs: int
    n_papers_with_examples: int
    n_examples: int
    label_counts: dict[str, int]
    n_features: int
    heldout: dict[str, dict] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return self.__dict__.copy()

    def __str__(self) -> str:
        return (
            f"entity scorer: {self.n_examples} candidates from {self.n_docs} papers, "
            f"{self.n_features} features; labels {self.label_counts}"
        )


def label_of(
    start: int, end: int, text: str, exact: dict[tuple[int, int], str],
    names: dict[str, set[str]],
) -> str:
    if (start, end) in exact:
        return exact[(start, end)]
    key = normalise(text)
    hits = [t for t in CLASSES[1:] if key and key in names[t]]
    return hits[0] if len(hits) == 1 else NONE


def examples(
    docs: Sequence[dict], nlp, *, max_body_tokens: int, seed: int, progress: Callable[[str], None],
    abstract_weight: int = 0,
) -> list[tuple[str, dict[str, float], str]]:
    """(doc id, features, label) for every candidate on the body passages of `docs`, and on
    their abstracts `abstract_weight` times over (0: bodies only)."""
    rng = random.Random(seed)
    all_passages: list[Passage] = []
    names_by_doc: dict[str, dict[str, set[str]]] = {}
    for doc in docs:
        all_passages.extend(passages(doc, max_body_tokens, rng))
        if abstract_weight:
            for passage in abstract_passage(doc):
                passage.weight = abstract_weight
                all_passages.append(passage)
        names_by_doc[doc["doc_id"]] = doc_names(doc)
    progress(f"parsing {len(all_passages)} passages of {len(docs)} papers")
    out: list[tuple[str, dict[str, float], str]] = []
    texts = ((p.text, p) for p in all_passages)
    for parsed, passage in nlp.pipe(texts, as_tuples=True, batch_size=64):
        exact = {(s, e): t for s, e, t in passage.mentions}
        drafts, _ = cand_mod.drafts_of(parsed)
        for d in drafts:
            if d.sources == {"acronym-use"}:
                continue
            label = label_of(d.span.start_char, d.span.end_char, d.span.text, exact,
                             names_by_doc[passage.doc_id])
            out.extend([(passage.doc_id, cand_mod.features(d), label)] * passage.weight)
    return out


#: inverse regularisation strength of the logistic regression; held-out F1 (5 folds, each
#: type at its best threshold) summed over the types was highest at 0.25 of 0.15, 0.25, 0.5, 1.0
C = 0.25


def fit(rows: Sequence[tuple[str, dict[str, float], str]], *, c: float = C) -> Scorer:
    # deferred: scikit-learn is heavy and only fitting needs it
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.linear_model import LogisticRegression

    counts: Counter[str] = Counter(k for _, f, _ in rows for k in f)
    keep = {k for k, n in counts.items() if n >= _MIN_FEATURE_COUNT}
    feats = [{k: v for k, v in f.items() if k in keep} for _, f, _ in rows]
    labels = [lab for _, _, lab in rows]
    vec = DictVectorizer()
    x = vec.fit_transform(feats)
    model = LogisticRegression(C=c, max_iter=400)
    model.fit(x, labels)
    classes = tuple(str(k) for k in model.classes_)
    names = vec.get_feature_names_out()
    weights: dict[str, tuple[float, ...]] = {}
    for j, name in enumerate(names):
        row = tuple(float(model.coef_[k, j]) for k in range(len(classes)))
        if max(abs(w) for w in row) >= 1e-3:
            weights[str(name)] = row
    return Scorer(classes, tuple(float(v) for v in model.intercept_), weights, {})


def _heldout_scores(scorers: dict[str, Scorer], gold_path: Path, nlp) -> dict[str, dict]:
    """Score the abstracts of each fold's papers, typed by the scorer that did not see them."""
    gold = [g for g in load_gold(gold_path) if g.id in scorers]
    extractions = []
    for parsed, g in nlp.pipe(((g.abstract, g) for g in gold), as_tuples=True):
        cands = cand_mod.compute(parsed, scorers[g.id])
        ments: list[Mention] = [c.mention(f"{c.type}s.v1") for c in cands]
        paper = Paper(key=g.id, abstract=g.abstract, title=g.title, id=g.id)
        extractions.append(PaperExtraction(paper=paper, mentions=ments))
    out = {}
    for threshold in HELDOUT_THRESHOLDS:
        chosen = filter_confidence(extractions, threshold)
        report = score(gold, chosen, use_resolver=False).to_dict()
        out[f"{threshold:.2f}"] = {
            "entities": report["entities"],
            "model_vs_methods": report["model_vs_methods"],
        }
    return out


#: held-out F1 scores closer than this are a tie (less than another split of the papers into
#: folds moves them), which goes to the higher threshold: the graph should rather miss a name
#: than state a wrong one
F1_TIE = 0.005


def best_thresholds(heldout: dict[str, dict]) -> dict[str, float]:
    """Per type, the threshold with the best held-out F1, the highest of those tied with it
    (models share the methods')."""
    best: dict[str, float] = {}
    for etype in CLASSES[1:]:
        scored = [
            (rows["entities"][etype]["f1"], float(t))
            for t, rows in heldout.items()
            if rows["entities"].get(etype)
        ]
        if scored:
            top = max(f1 for f1, _ in scored)
            best[etype] = max(t for f1, t in scored if f1 >= top - F1_TIE)
    if "method" in best:
        best["model"] = best["method"]
    return best


def _folds(ids: Sequence[str], k: int, seed: int) -> Iterator[set[str]]:
    order = list(ids)
    random.Random(seed).shuffle(order)
    for i in range(k):
        yield set(order[i::k])


DEFAULT_OUT = DATA_DIR / "models"


#: Tokens of each paper's body the scorer is fitted on (the shipped model's setting)
MAX_BODY_TOKENS = 4000


def train(
    out_dir: str | Path | None,
    *,
    scirex_dir: str | Path,
    gold: str | Path | None = None,
    folds: int = 0,
    max_body_tokens: int = MAX_BODY_TOKENS,
    abstract_weight: int = 0,
    seed: int = 13,
    nlp=None,
    progress: Callable[[str], None] = lambda msg: None,
) -> TrainReport:
    """Fit the scorer on the bodies of the SciREX train split (graph.eval.splits; the dev split's
    papers are left out) and write it to out_dir/entity_scorer.json (out_dir None: data/models/).
    `scirex_dir` holds the SciREX documents, or their train_docs/.

    With folds > 1 and a gold set, also report held-out scores (k-fold by document, train split
    only, so the thresholds chosen from them never see a dev paper) in
    out_dir/entity_scorer.report.json.
    """
    nlp = nlp or nlp_loader.load()
    scirex = Path(scirex_dir)
    if not any(scirex.glob("*.json")) and (scirex / "train_docs").is_dir():
        scirex = scirex / "train_docs"
    every = load_scirex(scirex)
    docs = train_split(every)
    progress(f"{len(docs)} of {len(every)} SciREX papers in the train split")
    rows = examples(docs, nlp, max_body_tokens=max_body_tokens, seed=seed, progress=progress,
                    abstract_weight=abstract_weight)
    if len({r[2] for r in rows}) < 2:
        raise InputError(f"{scirex}: too little body text with SciREX mentions to train on")
    progress(f"{len(rows)} candidates; fitting")
    scorer = fit(rows)
    report = TrainReport(
        n_docs=len(docs),
        n_papers_with_examples=len({r[0] for r in rows}),
        n_examples=len(rows),
        label_counts=dict(Counter(r[2] for r in rows)),
        n_features=len(scorer.weights),
    )
    if folds > 1 and gold is not None:
        by_doc: dict[str, Scorer] = {}
        for i, held in enumerate(_folds([d["doc_id"] for d in docs], folds, seed)):
            progress(f"fold {i + 1}/{folds}")
            fold_scorer = fit([r for r in rows if r[0] not in held])
            # emit down to the lowest threshold reported, so the sweep can see it
            lowest = {t: min(HELDOUT_THRESHOLDS) for t in CLASSES[1:]}
            fold_scorer = replace(fold_scorer, thresholds=lowest)
            for doc_id in held:
                by_doc[doc_id] = fold_scorer
        report.heldout = _heldout_scores(by_doc, Path(gold), nlp)
        scorer = replace(scorer, thresholds=best_thresholds(report.heldout))
    out = Path(out_dir) if out_dir is not None else DEFAULT_OUT
    out.mkdir(parents=True, exist_ok=True)
    data = scorer.to_json()
    data["trained_on"] = (
        f"SciREX bodies of the train split's {len(docs)} papers ({len(every) - len(docs)} dev "
        f"papers left out), up to {max_body_tokens} tokens each"
        + (f" and abstracts (weight {abstract_weight})" if abstract_weight else "")
        + f", seed {seed}; format {FORMAT}"
    )
    (out / MODEL_FILE).write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
    (out / REPORT_FILE).write_text(json.dumps(report.to_dict(), indent=1) + "\n", encoding="utf-8")
    return report
