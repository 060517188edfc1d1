"""Fit the entity candidate scorer on SciREX full texts: `paperkg train`.

Training examples are the candidates graph.extractors.candidates generates on passages of each
paper's *body* (the sections after the abstract), labelled with SciREX's mentions (Material is
dataset). A candidate is labelled with a type when its span is a SciREX mention of that type, or
when its normalised text names an entity of that type anywhere in the paper (SciREX marks
mentions sparsely; entity-level names are what the extractors are judged on).

Only the SciREX train split is used (graph.splits: 20 % of the papers, by a hash of the doc id,
are the dev split that `paperkg eval --corpus scirex` reports on). With `folds` > 1 the train
papers are also split k-fold by document: a scorer fitted on the bodies of the other folds types
the abstracts of each held-out fold, and those predictions are scored against the gold set
(tests/gold/scirex-train.json), so no figure comes from a paper the scorer saw.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from graph.errors import InputError
from graph.evaluate import normalise
from graph.extractors import candidates as cand_mod
from graph.extractors.scorer import FORMAT, NONE, Scorer
from graph.paths import MODELS
from graph.splits import SCIREX_DEV_SHARE, is_dev

CLASSES: tuple[str, ...] = (NONE, "method", "dataset", "task", "metric")
SCIREX_TYPES = {"Method": "method", "Material": "dataset", "Task": "task", "Metric": "metric"}
MODEL_FILE = "entity_scorer.json"
REPORT_FILE = "entity_scorer.report.json"

# Sections shorter than this at the start of a paper are its title alone.
_TITLE_ONLY = 40
_PASSAGE_TOKENS = 120
_MAX_SENTENCE_TOKENS = 90
_NO_SPACE_BEFORE = {",", ".", ";", ":", ")", "]", "%", "?", "!", "'s", "n't"}
_NO_SPACE_AFTER = {"(", "["}
_JOINERS = {"-", "/"}
# confidence thresholds the held-out scores are reported at; the best F1 per type is shipped
HELDOUT_THRESHOLDS = (0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6, 0.7)
# features seen in fewer training examples than this are dropped (they cannot be learned)
_MIN_FEATURE_COUNT = 2


@dataclass
class Passage:
    doc_id: str
    text: str
    #: (start, end, type) character spans of SciREX mentions in `text`
    mentions: list[tuple[int, int, str]]
    #: how many times each of its candidates counts in the fit
    weight: int = 1


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


def join_tokens(tokens: Sequence[str]) -> tuple[str, list[tuple[int, int]]]:
    """Readable text from pre-split tokens, and each token's character span in it."""
    out: list[str] = []
    spans: list[tuple[int, int]] = []
    pos = 0
    prev: str | None = None
    for tok in tokens:
        if prev is not None and not (
            tok in _NO_SPACE_BEFORE or tok in _JOINERS or prev in _NO_SPACE_AFTER or prev in _JOINERS
        ):
            out.append(" ")
            pos += 1
        spans.append((pos, pos + len(tok)))
        out.append(tok)
        pos += len(tok)
        prev = tok
    return "".join(out), spans


def _body_start(doc: dict) -> int | None:
    """The first token after the title and abstract; None when the paper has no body."""
    sections = doc["sections"]
    skip = 1 if sections[0][1] - sections[0][0] >= _TITLE_ONLY or len(sections) < 2 else 2
    if len(sections) <= skip:
        return None
    return sections[skip][0]


def _body_sentences(doc: dict) -> list[tuple[int, int]]:
    body_start = _body_start(doc)
    if body_start is None:
        return []
    words = doc["words"]
    out = []
    for a, b in doc["sentences"]:
        if a < body_start or b - a > _MAX_SENTENCE_TOKENS or b - a < 4:
            continue
        toks = words[a:b]
        if toks.count("=") >= 2 or (toks[1] == ":" and toks[0] in {"section", "subsection", "subsubsection", "paragraph"}):
            continue
        out.append((a, b))
    return out


def passages(doc: dict, max_tokens: int, rng: random.Random) -> list[Passage]:
    """Passages of about _PASSAGE_TOKENS tokens spread evenly over the body, max_tokens in all."""
    sents = _body_sentences(doc)
    groups: list[list[tuple[int, int]]] = []
    cur: list[tuple[int, int]] = []
    size = 0
    for a, b in sents:
        cur.append((a, b))
        size += b - a
        if size >= _PASSAGE_TOKENS:
            groups.append(cur)
            cur, size = [], 0
    if cur:
        groups.append(cur)
    budget = max(1, max_tokens // _PASSAGE_TOKENS)
    if len(groups) > budget:
        groups = [groups[i] for i in sorted(rng.sample(range(len(groups)), budget))]
    return _passages_of(doc, groups)


def abstract_passage(doc: dict) -> list[Passage]:
    """The title and abstract as one passage: the kind of text the scorer is used on."""
    end = _body_start(doc)
    sents = [(a, b) for a, b in doc["sentences"] if end is None or b <= end]
    return _passages_of(doc, [sents]) if sents else []


def _passages_of(doc: dict, groups: list[list[tuple[int, int]]]) -> list[Passage]:
    words = doc["words"]
    ner = sorted((a, b, SCIREX_TYPES[t]) for a, b, t in doc["ner"] if t in SCIREX_TYPES)
    out = []
    for group in groups:
        lo, hi = group[0][0], group[-1][1]
        idx = [i for a, b in group for i in range(a, b)]
        pos_of = {tok_i: k for k, tok_i in enumerate(idx)}
        text, spans = join_tokens([words[i] for i in idx])
        ments = [
            (spans[pos_of[a]][0], spans[pos_of[b - 1]][1], t)
            for a, b, t in ner
            if lo <= a and b <= hi and a in pos_of and (b - 1) in pos_of
        ]
        out.append(Passage(doc["doc_id"], text, ments))
    return out


def doc_names(doc: dict) -> dict[str, set[str]]:
    """Normalised names of every SciREX mention in the paper, per type."""
    words = doc["words"]
    names: dict[str, set[str]] = {t: set() for t in CLASSES[1:]}
    for a, b, t in doc["ner"]:
        if t in SCIREX_TYPES:
            names[SCIREX_TYPES[t]].add(normalise(join_tokens(words[a:b])[0]))
    return names


def label_of(start: int, end: int, text: str, exact: dict[tuple[int, int], str], names: dict[str, set[str]]) -> str:
    if (start, end) in exact:
        return exact[(start, end)]
    key = normalise(text)
    hits = [t for t in CLASSES[1:] if key and key in names[t]]
    return hits[0] if len(hits) == 1 else NONE


def train_split(docs: Iterable[dict]) -> list[dict]:
    """The SciREX documents outside the fixed dev split (graph.splits): the dev papers' bodies
    must not teach the scorer what their abstracts are scored on."""
    return [d for d in docs if not is_dev(d["doc_id"], SCIREX_DEV_SHARE)]


def load_scirex(scirex_dir: Path) -> list[dict]:
    paths = sorted(Path(scirex_dir).glob("*.json"))
    if not paths:
        raise InputError(f"{scirex_dir}: no SciREX documents (*.json) found")
    docs = []
    for path in paths:
        try:
            docs.append(json.loads(path.read_text(encoding="utf-8")))
        except ValueError as exc:
            raise InputError(f"{path}: not valid JSON: {exc}") from exc
    return docs


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
            label = label_of(d.span.start_char, d.span.end_char, d.span.text, exact, names_by_doc[passage.doc_id])
            out.extend([(passage.doc_id, cand_mod.features(d), label)] * passage.weight)
    return out


#: inverse regularisation strength of the logistic regression; held-out F1 (5 folds, each
#: type at its best threshold) summed over the types was highest at 0.25 of 0.15, 0.25, 0.5, 1.0
C = 0.25


def fit(rows: Sequence[tuple[str, dict[str, float], str]], *, c: float = C) -> Scorer:
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
    from graph.evaluate import load_gold, score
    from graph.model import Mention, Paper, PaperExtraction

    gold = [g for g in load_gold(gold_path) if g.id in scorers]
    extractions = []
    for parsed, g in nlp.pipe(((g.abstract, g) for g in gold), as_tuples=True):
        cands = cand_mod.compute(parsed, scorers[g.id])
        ments: list[Mention] = [c.mention(f"{c.type}s.v1") for c in cands]
        paper = Paper(key=g.id, abstract=g.abstract, title=g.title, id=g.id)
        extractions.append(PaperExtraction(paper=paper, mentions=ments))
    out = {}
    for threshold in HELDOUT_THRESHOLDS:
        from graph.evaluate import filter_confidence

        report = score(gold, filter_confidence(extractions, threshold), use_resolver=False).to_dict()
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


DEFAULT_OUT = MODELS


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
    """Fit the scorer on the bodies of the SciREX train split (graph.splits; the dev split's
    papers are left out) and write it to out_dir/entity_scorer.json (out_dir None: data/models/).
    `scirex_dir` holds the SciREX documents, or their train_docs/.

    With folds > 1 and a gold set, also report held-out scores (k-fold by document, train split
    only, so the thresholds chosen from them never see a dev paper) in
    out_dir/entity_scorer.report.json.
    """
    from graph import nlp as nlp_loader

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
            fold_scorer = replace(fold_scorer, thresholds={t: min(HELDOUT_THRESHOLDS) for t in CLASSES[1:]})
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


def main(argv: Iterable[str] | None = None) -> int:
    import argparse

    root = Path(__file__).resolve().parents[1]
    parser = argparse.ArgumentParser(description="Fit the entity candidate scorer on SciREX.")
    parser.add_argument("--scirex", type=Path, default=root.parent / "shared" / "data" / "scirex" / "train_docs")
    parser.add_argument("--out", type=Path, default=root / "data" / "models")
    parser.add_argument("--gold", type=Path, default=None)
    parser.add_argument("--folds", type=int, default=0)
    parser.add_argument("--max-body-tokens", type=int, default=MAX_BODY_TOKENS)
    parser.add_argument("--abstract-weight", type=int, default=0,
                        help="also train on each paper's abstract, counted this many times")
    args = parser.parse_args(list(argv) if argv is not None else None)
    report = train(
        args.out, scirex_dir=args.scirex, gold=args.gold, folds=args.folds,
        max_body_tokens=args.max_body_tokens, abstract_weight=args.abstract_weight,
        progress=print,
    )
    print(json.dumps(report.to_dict(), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
